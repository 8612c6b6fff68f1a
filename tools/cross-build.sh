#!/usr/bin/env bash
# Runs INSIDE the cross chroot (tools/release.sh mounts the checkout at /argus, a cargo target
# cache at /target and the release work folder at /out): builds the Windows x86_64 and macOS
# libraries of the C ABI crate and of the Godot add-on, stripped, into /out/<platform>/; then the
# phone, web and Linux arm64 builds of tools/reach/ (ARGUS_REACH: which; default all).
# Only the Linux std is prebuilt anywhere here, so std is built from Debian's rust-src
# (-Zbuild-std; RUSTC_BOOTSTRAP lets the stable rustc take that unstable flag).
set -euo pipefail
source /argus/tools/cross-env.sh
MAC_ARCHES="${ARGUS_MACOS_ARCHES:-aarch64 x86_64}"
GODOT_MAC_ARCHES="${ARGUS_GODOT_MACOS_ARCHES:-aarch64 x86_64}"

# ---- Windows x86_64 (MinGW-w64; the DLL links the GCC runtime statically, so it needs no MinGW DLL)
# Code size: rustc's windows-gnu targets compile without function sections, and GNU ld's MinGW
# script keeps every .pdata (unwind) section and with it every function, so --gc-sections dropped
# no code and the DLL's .text was 2x Linux's (3.6 vs 1.9 MB). One section per function, linked by
# lld in MinGW mode (tools/release/mingw-lld-cc), which drops a function with its unwind entry.
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=/argus/tools/release/mingw-lld-cc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-Zfunction-sections=yes $REMAP"
W=x86_64-pc-windows-gnu
"${BUILD[@]}" --target $W -p argus --lib
"${BUILD[@]}" --target $W -p argus-godot
o=/out/windows-x86_64 && rm -rf $o && mkdir -p $o
cp /target/$W/release/argus.dll /target/$W/release/libargus.dll.a /target/$W/release/libargus.a $o/
cp /target/$W/release/argus_godot.dll $o/argus_godot.windows.x86_64.dll
x86_64-w64-mingw32-strip --strip-unneeded $o/argus.dll $o/argus_godot.windows.x86_64.dll
x86_64-w64-mingw32-strip --strip-debug $o/libargus.a
# The .def lists the DLL's exports; llvm-dlltool turns it into the import .lib MSVC's linker takes.
{ echo "LIBRARY argus.dll"; echo "EXPORTS"
  llvm-readobj --coff-exports $o/argus.dll | sed -n 's/^ *Name: \(argus_.*\)$/    \1/p'; } >$o/argus.def
llvm-dlltool -m i386:x86-64 -d $o/argus.def -l $o/argus.lib

# ---- macOS (ld64.lld against the stand-in SDK at $SDKROOT: libSystem.tbd only). The C library is
# universal (arm64 + x86_64, lipo'd); so is the Godot add-on's, built for GODOT_MAC_ARCHES (each
# arch is a full gdext build, among the longest steps of a release), and the arches it holds are
# written beside it for tools/release.sh to name in the .gdextension.
export SDKROOT=/opt/macos-sdk MACOSX_DEPLOYMENT_TARGET=11.0
o=/out/macos && rm -rf $o && mkdir -p $o
mac_env() { # arch: the linker settings of that Apple target
    local up; up=$(echo "$1-apple-darwin" | tr a-z- A-Z_)
    export CARGO_TARGET_${up}_LINKER=ld64.lld
    export CARGO_TARGET_${up}_RUSTFLAGS="-Zunstable-options -Clinker-flavor=darwin-lld $REMAP"
}
libs=() statics=() godot=()
for arch in $MAC_ARCHES; do
    mac_env $arch
    "${BUILD[@]}" --target $arch-apple-darwin -p argus --lib
    libs+=(/target/$arch-apple-darwin/release/libargus.dylib) statics+=(/target/$arch-apple-darwin/release/libargus.a)
done
for arch in $GODOT_MAC_ARCHES; do
    mac_env $arch
    "${BUILD[@]}" --target $arch-apple-darwin -p argus-godot
    godot+=(/target/$arch-apple-darwin/release/libargus_godot.dylib)
done
llvm-lipo -create "${libs[@]}" -output $o/libargus.dylib
llvm-lipo -create "${statics[@]}" -output $o/libargus.a
if [[ ${#godot[@]} -gt 1 ]]; then
    llvm-lipo -create "${godot[@]}" -output $o/libargus_godot.macos.dylib
else
    cp "${godot[0]}" $o/libargus_godot.macos.dylib   # one arch: a thin file, as built
fi
echo "$GODOT_MAC_ARCHES" >$o/godot-arches
# Loaders find it by @rpath (the app's Frameworks or the folder a game engine adds), not a build path.
llvm-install-name-tool -id @rpath/libargus.dylib $o/libargus.dylib
llvm-install-name-tool -id @rpath/libargus_godot.macos.dylib $o/libargus_godot.macos.dylib
llvm-strip -x $o/libargus.dylib $o/libargus_godot.macos.dylib
llvm-strip --strip-debug $o/libargus.a
ls -l /out/windows-x86_64 /out/macos

# ---- Phones, the web and Linux arm64 (tools/reach/<platform>.sh; ARGUS_REACH picks which)
for platform in ${ARGUS_REACH-linux-arm64 android ios web}; do
    source /argus/tools/reach/$platform.sh
done
