# Argus @VERSION@. Before 1.0 a minor release may change the ABI: only the same major.minor
# (and a patch at least the one asked for) is compatible.
set(PACKAGE_VERSION "@VERSION@")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(PACKAGE_FIND_VERSION_MAJOR EQUAL "@MAJOR@" AND PACKAGE_FIND_VERSION_MINOR EQUAL "@MINOR@"
        AND NOT PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
if(NOT PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
endif()
# A library of one pointer size (@VOID_P@ bytes; empty: the Android SDK, which holds a library per
# ABI): a project of another size cannot use it. As in CMake's own version-file template, a project
# that enables no compiler (LANGUAGES NONE: CMAKE_SIZEOF_VOID_P empty) is not refused.
if(NOT "@VOID_P@" STREQUAL "" AND NOT "${CMAKE_SIZEOF_VOID_P}" STREQUAL ""
        AND NOT "${CMAKE_SIZEOF_VOID_P}" STREQUAL "@VOID_P@")
    math(EXPR _argus_bits "@VOID_P@ * 8")
    set(PACKAGE_VERSION "${PACKAGE_VERSION} (${_argus_bits}bit)")
    set(PACKAGE_VERSION_UNSUITABLE TRUE)
    unset(_argus_bits)
endif()
