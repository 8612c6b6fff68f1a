# Cross-compiling the consumer for Windows x86_64 with MinGW-w64 (run under Wine).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
