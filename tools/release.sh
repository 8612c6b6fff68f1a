#!/usr/bin/env bash
# Builds every Argus release artifact into dist/ (the README's release command):
#   tools/release.sh
#
#   dist/argus-sdk-<v>-linux-x86_64.tar.gz   C SDK: headers, libargus.so/.a, CMake config, pkg-config
#   dist/argus-sdk-<v>-windows-x86_64.zip    C SDK: argus.dll, libargus.dll.a (MinGW), argus.lib+.def (MSVC), libargus.a
#   dist/argus-sdk-<v>-macos-universal.tar.gz C SDK: libargus.dylib/.a for arm64 + x86_64 (built, not run)
#   dist/com.argus.perception-<v>.tgz         Unity package ("Add package from tarball"), three platforms
#   dist/argus-godot-<v>.zip                  Godot add-on, Asset Library layout (addons/argus/...): Linux
#                                             x86_64, Windows x86_64, macOS arm64
#   dist/Argus.<v>.nupkg                      C# assembly + XML docs + runtimes/<rid>/native/
#   dist/SHA256SUMS
#
# Linux is built with this machine's toolchain (its older glibc makes the library load on more
# distributions); Windows and macOS in a Debian sid chroot (tools/cross-chroot.sh, built on first
# use, ~1.5 GB, cached under /var/cache/argus-cross). Needs root the first time (debootstrap, apt).
# ARGUS_MACOS_ARCHES: the macOS C library's arches (default "aarch64 x86_64", lipo'd into one);
# ARGUS_GODOT_MACOS_ARCHES: the Godot add-on's (default "aarch64": each is a full gdext build).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIST="$ROOT/dist"
WORK="${CARGO_TARGET_DIR:-$ROOT/target}/release-work"
CROSS_CACHE="${ARGUS_CROSS_CACHE:-/var/cache/argus-cross}"
V="$(python3 tools/version.py)"
python3 tools/version.py --check >/dev/null || { python3 tools/version.py --check; exit 1; }
IFS=. read -r MAJOR MINOR PATCH <<<"$V"

TIMES=()
T0=$SECONDS
stage() { # name: ends the previous stage's clock and starts this one's
    [[ -n "${STAGE:-}" ]] && TIMES+=("$(printf '%-10s %4ds' "$STAGE" $((SECONDS - STAGE_START)))")
    STAGE="$1" STAGE_START=$SECONDS
    echo "== release: $1"
}

need_apt() { # command package: installs the package when the command is missing (root)
    command -v "$1" >/dev/null && return 0
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null ||
        { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq --no-install-recommends "$2" >/dev/null; }
}
need_apt mcs mono-mcs
need_apt zip zip
need_apt unzip unzip

rm -rf "$DIST" "$WORK"
mkdir -p "$DIST" "$WORK/linux-x86_64"

# ---- Linux x86_64 (host toolchain) ------------------------------------------------------------
stage linux
cargo build --release --locked -p argus --lib
cargo build --release --locked -p argus-godot
R="${CARGO_TARGET_DIR:-$ROOT/target}/release"
cp "$R/libargus.so" "$R/libargus.a" "$WORK/linux-x86_64/"
cp "$R/libargus_godot.so" "$WORK/linux-x86_64/libargus_godot.linux.x86_64.so"
strip --strip-unneeded "$WORK/linux-x86_64/libargus.so" "$WORK/linux-x86_64/libargus_godot.linux.x86_64.so"
strip --strip-debug "$WORK/linux-x86_64/libargus.a"

# ---- Windows and macOS (the sid chroot) -------------------------------------------------------
stage chroot
CHROOT="$(ARGUS_CROSS_CHROOT="$CROSS_CACHE/sid" "$ROOT/tools/cross-chroot.sh")"
# The macOS stand-in SDK: libSystem.tbd from PyPI's ziglang wheel (Apple's own SDK cannot be
# fetched here), its arm64e entries removed since ld64.lld rejects them.
if [[ ! -f "$CHROOT/opt/macos-sdk/usr/lib/libSystem.tbd" ]]; then
    mkdir -p "$CROSS_CACHE/dl" "$CHROOT/opt/macos-sdk/usr/lib"
    ls "$CROSS_CACHE"/dl/ziglang-0.14.1-*.whl >/dev/null 2>&1 ||
        pip3 download -q ziglang==0.14.1 --no-deps --only-binary :all: --platform manylinux_2_12_x86_64 -d "$CROSS_CACHE/dl"
    unzip -p "$CROSS_CACHE"/dl/ziglang-0.14.1-*.whl ziglang/lib/libc/darwin/libSystem.tbd |
        python3 -c 'import re,sys; s=sys.stdin.read(); s=re.sub(r",\s*arm64e-[a-z]+","",s); sys.stdout.write(re.sub(r"arm64e-[a-z]+\s*,\s*","",s))' \
        >"$CHROOT/opt/macos-sdk/usr/lib/libSystem.tbd"
fi
# As in Apple's SDK, -lc and -lm (which rustc passes) are libSystem.
ln -sf libSystem.tbd "$CHROOT/opt/macos-sdk/usr/lib/libc.tbd"
ln -sf libSystem.tbd "$CHROOT/opt/macos-sdk/usr/lib/libm.tbd"
stage cross
mkdir -p "$CHROOT/argus" "$CHROOT/target" "$CHROOT/out" "$CROSS_CACHE/target"
cross_umount() { for m in out target argus proc; do umount "$CHROOT/$m" 2>/dev/null || true; done; }
trap cross_umount EXIT
mount -t proc proc "$CHROOT/proc"
mount --bind "$ROOT" "$CHROOT/argus"
mount --bind "$CROSS_CACHE/target" "$CHROOT/target"   # kept between runs: later builds are incremental
mount --bind "$WORK" "$CHROOT/out"
chroot "$CHROOT" env ARGUS_MACOS_ARCHES="${ARGUS_MACOS_ARCHES:-aarch64 x86_64}" \
    ARGUS_GODOT_MACOS_ARCHES="${ARGUS_GODOT_MACOS_ARCHES:-aarch64}" bash /argus/tools/cross-build.sh
cross_umount
trap - EXIT

# ---- C SDKs ------------------------------------------------------------------------------------
stage sdk
# What Rust's std needs from the system when the static library is linked (rustc --print native-static-libs).
declare -A STATIC_LIBS=(
    [linux-x86_64]="gcc_s;util;rt;pthread;m;dl;c"
    [windows-x86_64]="kernel32;advapi32;ntdll;userenv;ws2_32;bcrypt;synchronization"
    [macos-universal]="System;c;m"
)
sdk() { # platform source-folder
    local p="$1" src="$2" name="argus-sdk-$V-$1" d files flags
    d="$WORK/sdk/$name"
    mkdir -p "$d/include" "$d/lib/cmake/Argus" "$d/lib/pkgconfig"
    cp include/argus.h bindings/cpp/argus.hpp "$d/include/"
    cp unity/LICENSE.md "$d/LICENSE.md"
    mkdir -p "$d/tools" && cp tools/inspector/argus-inspector.html "$d/tools/"
    case "$p" in
        windows-*) mkdir -p "$d/bin"; cp "$src/argus.dll" "$d/bin/"
                   cp "$src/libargus.dll.a" "$src/argus.lib" "$src/argus.def" "$src/libargus.a" "$d/lib/"
                   files="    bin/argus.dll        the library (ships beside your executable)
    lib/argus.lib        MSVC import library (argus.def: its export list)
    lib/libargus.dll.a   MinGW import library
    lib/libargus.a       static library (MinGW only)" ;;
        macos-*)   cp "$src/libargus.dylib" "$src/libargus.a" "$d/lib/"
                   files="    lib/libargus.dylib   the library, arm64 + x86_64, macOS 11+, install name @rpath/libargus.dylib
    lib/libargus.a       static library (arm64 + x86_64)" ;;
        *)         cp "$src/libargus.so" "$src/libargus.a" "$d/lib/"
                   files="    lib/libargus.so      the library (x86_64, glibc 2.36+)
    lib/libargus.a       static library" ;;
    esac
    flags="$(tr ';' '\n' <<<"${STATIC_LIBS[$p]}" | sed 's/^/-l/' | tr '\n' ' ')"
    local sub=(-e "s|@VERSION@|$V|g" -e "s|@MAJOR@|$MAJOR|g" -e "s|@MINOR@|$MINOR|g"
               -e "s|@STATIC_LIBS@|${STATIC_LIBS[$p]}|g" -e "s|@STATIC_FLAGS@|${flags% }|g" -e "s|@PLATFORM@|$p|g")
    sed "${sub[@]}" tools/release/ArgusConfig.cmake >"$d/lib/cmake/Argus/ArgusConfig.cmake"
    sed "${sub[@]}" tools/release/ArgusConfigVersion.cmake >"$d/lib/cmake/Argus/ArgusConfigVersion.cmake"
    sed "${sub[@]}" tools/release/argus.pc >"$d/lib/pkgconfig/argus.pc"
    python3 - "$d/README.md" "$files" <<'PY'
import sys
text = open("tools/release/SDK-README.md").read()
open(sys.argv[1], "w").write(text.replace("@FILES@", sys.argv[2]))
PY
    sed -i "${sub[@]}" "$d/README.md"
    case "$p" in
        windows-*) (cd "$WORK/sdk" && zip -qrX "$DIST/$name.zip" "$name") ;;
        *)         tar -C "$WORK/sdk" --owner=0 --group=0 --sort=name -czf "$DIST/$name.tar.gz" "$name" ;;
    esac
}
sdk linux-x86_64 "$WORK/linux-x86_64"
sdk windows-x86_64 "$WORK/windows-x86_64"
sdk macos-universal "$WORK/macos"

# ---- Unity package (UPM tarball: everything under package/) --------------------------------------
stage unity
U="$WORK/unity/package"
mkdir -p "$U"
# The package as users get it: no build script, no libraries of this machine's builds.
# Tools~/metas.py stays (Unity ignores Tools~): it writes the importer .meta of a library a user adds.
tar -C unity --exclude='./build-plugin.sh*' --exclude='./Plugins' -cf - . | tar -C "$U" -xf -
mkdir -p "$U/Plugins/Linux/x86_64" "$U/Plugins/Windows/x86_64" "$U/Plugins/macOS"
cp "$WORK/linux-x86_64/libargus.so" "$U/Plugins/Linux/x86_64/"
cp "$WORK/windows-x86_64/argus.dll" "$U/Plugins/Windows/x86_64/"
cp "$WORK/macos/libargus.dylib" "$U/Plugins/macOS/"
cp tools/inspector/argus-inspector.html "$U/Tools~/"
python3 "unity/Tools~/metas.py" --root "$U"
python3 "unity/Tools~/metas.py" --root "$U" --check >/dev/null
tar -C "$WORK/unity" --owner=0 --group=0 --sort=name -czf "$DIST/com.argus.perception-$V.tgz" package

# ---- Godot add-on (Asset Library zip: addons/argus/...) -----------------------------------------
stage godot
G="$WORK/godot/addons/argus"
mkdir -p "$G/bin"
cp -r godot/addons/argus/icons "$G/"
# The recordings' inspector, in a folder Godot does not import (.gdignore).
mkdir -p "$G/tools" && cp tools/inspector/argus-inspector.html "$G/tools/" && touch "$G/tools/.gdignore"
cp unity/LICENSE.md "$G/LICENSE.md"
cp "$WORK/linux-x86_64/libargus_godot.linux.x86_64.so" "$WORK/windows-x86_64/argus_godot.windows.x86_64.dll" \
    "$WORK/macos/libargus_godot.macos.dylib" "$G/bin/"
# The .gdextension lists exactly the libraries the zip holds (Godot reports a listed file that is
# missing only when a user exports for that platform: too late).
python3 - godot/addons/argus/argus.gdextension "$G" "$(cat "$WORK/macos/godot-arches")" <<'PY'
import os, re, sys
src, addon, mac_arches = sys.argv[1], sys.argv[2], sys.argv[3].split()
# A macOS library of one arch is listed under that arch's feature tag (Godot on the other arch then
# says which library it lacks); a universal one under plain macos.
mac_tag = "" if len(mac_arches) > 1 else "." + {"aarch64": "arm64"}.get(mac_arches[0], mac_arches[0])
out, section = [], None
for line in open(src):
    m = re.match(r"\[(\w+)\]", line)
    if m:
        section = m.group(1)
    lib = re.search(r'"res://addons/argus/(bin/[^"]+)"', line)
    if section == "libraries" and lib and not os.path.exists(os.path.join(addon, lib.group(1))):
        continue
    line = re.sub(r"^macos\.(debug|release) =", lambda m: "macos.%s%s =" % (m.group(1), mac_tag), line)
    out.append(line)
open(os.path.join(addon, "argus.gdextension"), "w").write("".join(out))
PY
(cd "$WORK/godot" && zip -qrX "$DIST/argus-godot-$V.zip" addons)

# ---- C# (.nupkg: lib/net45 + runtimes/<rid>/native) ---------------------------------------------
stage dotnet
N="$WORK/nuget"
mkdir -p "$N/lib/net45" "$N/runtimes/linux-x64/native" "$N/runtimes/win-x64/native" "$N/runtimes/osx/native" "$N/_rels"
# The same compiler settings and sources as bindings/csharp/build.sh: C# 7, as Unity's and Mono's compilers
# take; the bindings' one copy is unity/Runtime/Bindings (the Unity package compiles the same files).
mcs -langversion:7 -unsafe -optimize+ -nowarn:1591 -target:library -out:"$N/lib/net45/Argus.dll" \
    -doc:"$N/lib/net45/Argus.xml" -r:System.Numerics.dll -recurse:"unity/Runtime/Bindings/*.cs"
cp "$WORK/linux-x86_64/libargus.so" "$N/runtimes/linux-x64/native/"
cp "$WORK/windows-x86_64/argus.dll" "$N/runtimes/win-x64/native/"
cp "$WORK/macos/libargus.dylib" "$N/runtimes/osx/native/"
cp unity/LICENSE.md "$N/LICENSE.md"
cat >"$N/Argus.nuspec" <<XML
<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd">
  <metadata>
    <id>Argus</id>
    <version>$V</version>
    <authors>Argus contributors</authors>
    <description>Game-AI perception (vision, hearing, memory, a guard brain, influence maps) for .NET engines: C# bindings over the native Argus library, which this package carries for Linux x64, Windows x64 and macOS.</description>
    <license type="expression">MIT OR Apache-2.0</license>
    <tags>gamedev ai perception stealth</tags>
    <frameworkAssemblies>
      <frameworkAssembly assemblyName="System.Numerics" targetFramework="net45" />
    </frameworkAssemblies>
  </metadata>
</package>
XML
cat >"$N/[Content_Types].xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" /><Default Extension="nuspec" ContentType="application/octet" /><Default Extension="dll" ContentType="application/octet" /><Default Extension="xml" ContentType="application/octet" /><Default Extension="so" ContentType="application/octet" /><Default Extension="dylib" ContentType="application/octet" /><Default Extension="md" ContentType="application/octet" /></Types>
XML
cat >"$N/_rels/.rels" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Type="http://schemas.microsoft.com/packaging/2010/07/manifest" Target="/Argus.nuspec" Id="R0" /></Relationships>
XML
(cd "$N" && zip -nw -qrX "$DIST/Argus.$V.nupkg" Argus.nuspec '[Content_Types].xml' _rels lib runtimes LICENSE.md)

stage done
(cd "$DIST" && sha256sum -- * >SHA256SUMS)
echo
ls -l "$DIST"
echo "release $V: stage times"
printf '  %s\n' "${TIMES[@]}"
echo "  total      $((SECONDS - T0))s"
