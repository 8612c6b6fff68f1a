# CMake package config of the Argus C SDK: find_package(Argus CONFIG) gives Argus::argus (the
# shared library) and Argus::argus_static, each when this SDK holds it for the project's platform:
# the iOS and web SDKs hold only the static library, the Android SDK only the shared one (per ABI),
# and under MSVC the Windows SDK's static library cannot be used. Relocatable: paths are found from
# this file's place.
get_filename_component(_argus_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(Argus_VERSION "@VERSION@")
set(Argus_INCLUDE_DIR "${_argus_prefix}/include")

# The shared library of this platform (the Android SDK: one folder per ABI, as the NDK names them).
set(_argus_shared_ok TRUE)
if(WIN32)
    set(_argus_shared "${_argus_prefix}/bin/argus.dll")
elseif(APPLE AND NOT IOS)
    set(_argus_shared "${_argus_prefix}/lib/libargus.dylib")
elseif(ANDROID OR CMAKE_SYSTEM_NAME STREQUAL "Android")
    set(_argus_shared "${_argus_prefix}/lib/${CMAKE_ANDROID_ARCH_ABI}/libargus.so")
else()
    set(_argus_shared "${_argus_prefix}/lib/libargus.so")
endif()
if(NOT EXISTS "${_argus_shared}")
    set(_argus_shared_ok FALSE)
    set(_argus_shared_why "Argus::argus is not available: this Argus SDK (@PLATFORM@) has no ${_argus_shared}. The iOS and web SDKs hold only the static library (link Argus::argus_static); otherwise use the SDK of your target platform.")
endif()

# The static library of the Windows SDK is a MinGW (GNU) archive, with the MinGW runtime's
# symbols: MSVC's linker cannot use it. Argus::argus_static is then not defined, and asking for
# it (find_package(Argus COMPONENTS argus_static)) fails with this message.
set(_argus_static_ok TRUE)
if(WIN32 AND MSVC)
    set(_argus_static_ok FALSE)
    set(_argus_static_why "Argus::argus_static is not available with MSVC: lib/libargus.a of this SDK is a MinGW archive, which MSVC's linker cannot use. Link Argus::argus (lib/argus.lib, with bin/argus.dll beside your program), or build with MinGW.")
elseif(NOT EXISTS "${_argus_prefix}/lib/libargus.a")
    set(_argus_static_ok FALSE)
    set(_argus_static_why "Argus::argus_static is not available: this Argus SDK (@PLATFORM@) has no static library. Link Argus::argus.")
endif()

if(_argus_shared_ok AND NOT TARGET Argus::argus)
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
            IMPORTED_LOCATION "${_argus_shared}" IMPORTED_IMPLIB "${_argus_implib}")
    elseif(APPLE)
        set_target_properties(Argus::argus PROPERTIES IMPORTED_LOCATION "${_argus_shared}"
            IMPORTED_SONAME "@rpath/libargus.dylib")
    else()
        # The library's SONAME is libargus.so: a program records that name, not this path, and
        # finds the library by its rpath (CMake's build rpath, $ORIGIN) or LD_LIBRARY_PATH.
        set_target_properties(Argus::argus PROPERTIES IMPORTED_LOCATION "${_argus_shared}"
            IMPORTED_SONAME "libargus.so")
    endif()
endif()
if(_argus_static_ok AND NOT TARGET Argus::argus_static)
    # The static library carries Rust's std: it needs the system libraries std links.
    add_library(Argus::argus_static STATIC IMPORTED)
    set_target_properties(Argus::argus_static PROPERTIES
        IMPORTED_LOCATION "${_argus_prefix}/lib/libargus.a"
        INTERFACE_INCLUDE_DIRECTORIES "${Argus_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "@STATIC_LIBS@")
endif()

# Components: argus and argus_static, each found when this SDK holds it for this platform. Asking
# for neither asks for the one the SDK holds.
set(Argus_argus_FOUND ${_argus_shared_ok})
set(Argus_argus_static_FOUND ${_argus_static_ok})
if(NOT _argus_shared_ok AND NOT _argus_static_ok)
    set(Argus_FOUND FALSE)
    set(Argus_NOT_FOUND_MESSAGE "${_argus_shared_why}")
endif()
foreach(_argus_comp IN LISTS Argus_FIND_COMPONENTS)
    if(NOT _argus_comp STREQUAL "argus" AND NOT _argus_comp STREQUAL "argus_static")
        set(Argus_FOUND FALSE)
        set(Argus_NOT_FOUND_MESSAGE "Argus has no component '${_argus_comp}' (it has argus and argus_static)")
    elseif(NOT Argus_${_argus_comp}_FOUND AND Argus_FIND_REQUIRED_${_argus_comp})
        set(Argus_FOUND FALSE)
        if(_argus_comp STREQUAL "argus")
            set(Argus_NOT_FOUND_MESSAGE "${_argus_shared_why}")
        else()
            set(Argus_NOT_FOUND_MESSAGE "${_argus_static_why}")
        endif()
    endif()
endforeach()
if(NOT Argus_FIND_QUIETLY)
    foreach(_argus_why IN ITEMS "${_argus_shared_why}" "${_argus_static_why}")
        if(_argus_why)
            message(STATUS "Argus: ${_argus_why}")
        endif()
    endforeach()
endif()
foreach(_argus_var IN ITEMS _argus_comp _argus_why _argus_shared _argus_shared_ok _argus_shared_why
        _argus_static_ok _argus_static_why _argus_implib _argus_prefix)
    unset(${_argus_var})
endforeach()
unset(_argus_var)
