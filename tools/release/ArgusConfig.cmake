# CMake package config of the Argus C SDK: find_package(Argus CONFIG) gives Argus::argus (the
# shared library) and Argus::argus_static. Relocatable: paths are found from this file's place.
get_filename_component(_argus_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(Argus_VERSION "@VERSION@")
set(Argus_INCLUDE_DIR "${_argus_prefix}/include")

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
        set_target_properties(Argus::argus PROPERTIES IMPORTED_LOCATION "${_argus_prefix}/lib/libargus.so")
    endif()

    # The static library carries Rust's std: it needs the system libraries std links.
    add_library(Argus::argus_static STATIC IMPORTED)
    set_target_properties(Argus::argus_static PROPERTIES
        IMPORTED_LOCATION "${_argus_prefix}/lib/libargus.a"
        INTERFACE_INCLUDE_DIRECTORIES "${Argus_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "@STATIC_LIBS@")
endif()
unset(_argus_implib)
unset(_argus_prefix)
