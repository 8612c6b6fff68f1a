#!/usr/bin/env bash
# Sourced INSIDE the cross chroot by tools/cross-build.sh and tools/reach/dev-run.sh: the settings
# every cross build shares. The checkout is at /argus, the cargo target cache at /target, the
# release work folder at /out.
set -euo pipefail
cd /argus
export RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=/target HOME=/root
BUILD=(cargo build --release --locked -Zbuild-std=std,panic_abort)
# No build-machine path in a shipped library: the crates' sources (this chroot's registry and
# Debian's rust-src, which std is built from here) and generated files under the target folder
# are named by neutral prefixes in panic messages. The checkout's own files are relative already.
REMAP="--remap-path-prefix=/root/.cargo/registry/src=registry --remap-path-prefix=/usr/lib/rustlib/src/rust=rust --remap-path-prefix=/target=target --remap-path-prefix=/argus=argus"
# The DLL's version resource (build.rs) must be there: fail rather than ship without it.
export ARGUS_REQUIRE_VERSION_RESOURCE=1
