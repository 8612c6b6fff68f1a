# CMake package config of the Argus C SDK: find_package(Argus CONFIG) gives Argus::argus (the
# shared library) and, except under MSVC, Argus::argus_static. Relocatable: paths are found from
# this file's place.
get_filename_component(_argus_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(Argus_VERSION "@VERSION@")
set(Argus_INCLUDE_DIR "${_argus_prefix}/include")

# The static library of the Windows SDK is a MinGW (GNU) archive, with the MinGW runtime's
# symbols: MSVC's linker cannot use it. Argus::argus_static is then not defined, and asking for
# it (find_package(Argus COMPONENTS argus_static)) fails with this message.
set(_argus_static_ok TRUE)
if(WIN32 AND MSVC)
    set(_argus_static_ok FALSE)
    set(_argus_static_why "Argus::argus_static is not available with MSVC: lib/libargus.a of this SDK is a MinGW archive, which MSVC's linker cannot use. Link Argus::argus (lib/argus.lib, with bin/argus.dll beside your program), or build with MinGW.")
endif()

if(NOT TARGET Argus::argus)
    add_library(Argus::argus SHARED IMPORTED)
    set_target_properties(Argus::argus PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Argus_INCLUDE_DIR}")
    if(WIN32)
        # The DLL runs; the import library links: argus.lib for MSVC, libargus.dll.a for MinGW.
        if(MSVC)
            set(_argus_implib "${_argus_prefix}/lib/argus.lib")
        else()
            set(_argus_implib "${_argus_prefix}/lib/libargus.dll.a")
        endif()
        set_target_properties(Argus::argus PROPERTIES
            IMPORTED_LOCATION "${_argus_prefix}/bin/argus.dll" IMPORTED_IMPLIB "${_argus_implib}")
    elseif(APPLE)
        set_target_properties(Argus::argus PROPERTIES IMPORTED_LOCATION "${_argus_prefix}/lib/libargus.dylib"
            IMPORTED_SONAME "@rpath/libargus.dylib")
    else()
        # The library's SONAME is libargus.so: a program records that name, not this path, and
        # finds the library by its rpath (CMake's build rpath, $ORIGIN) or LD_LIBRARY_PATH.
        set_target_properties(Argus::argus PROPERTIES IMPORTED_LOCATION "${_argus_prefix}/lib/libargus.so"
            IMPORTED_SONAME "libargus.so")
    endif()

    if(_argus_static_ok)
        # The static library carries Rust's std: it needs the system libraries std links.
        add_library(Argus::argus_static STATIC IMPORTED)
        set_target_properties(Argus::argus_static PROPERTIES
            IMPORTED_LOCATION "${_argus_prefix}/lib/libargus.a"
            INTERFACE_INCLUDE_DIRECTORIES "${Argus_INCLUDE_DIR}"
            INTERFACE_LINK_LIBRARIES "@STATIC_LIBS@")
    endif()
endif()

# Components: argus (always) and argus_static (not under MSVC).
set(Argus_argus_FOUND TRUE)
set(Argus_argus_static_FOUND ${_argus_static_ok})
foreach(_argus_comp IN LISTS Argus_FIND_COMPONENTS)
    if(NOT _argus_comp STREQUAL "argus" AND NOT _argus_comp STREQUAL "argus_static")
        set(Argus_FOUND FALSE)
        set(Argus_NOT_FOUND_MESSAGE "Argus has no component '${_argus_comp}' (it has argus and argus_static)")
    elseif(_argus_comp STREQUAL "argus_static" AND NOT _argus_static_ok)
        if(Argus_FIND_REQUIRED_argus_static)
            set(Argus_FOUND FALSE)
            set(Argus_NOT_FOUND_MESSAGE "${_argus_static_why}")
        endif()
    endif()
endforeach()
if(NOT _argus_static_ok AND NOT Argus_FIND_QUIETLY)
    message(STATUS "Argus: ${_argus_static_why}")
endif()
unset(_argus_comp)
unset(_argus_static_ok)
unset(_argus_static_why)
unset(_argus_implib)
unset(_argus_prefix)
