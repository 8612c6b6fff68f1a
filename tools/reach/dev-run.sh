#!/usr/bin/env bash
# For working on one platform's build alone: runs tools/reach/<platform>.sh in the cross chroot
# (as tools/cross-build.sh does in a release), inside a private mount namespace so that parallel
# runs never unmount each other. Its output goes to $ARGUS_REACH_OUT/<platform> (default
# /tmp/argus-reach-out/<platform>), seen in the chroot as /out/<platform>.
#   tools/reach/dev-run.sh <platform>
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
platform="${1:?usage: tools/reach/dev-run.sh <platform>}"
[[ -f "$ROOT/tools/reach/$platform.sh" ]] || { echo "no tools/reach/$platform.sh" >&2; exit 1; }
OUT="${ARGUS_REACH_OUT:-/tmp/argus-reach-out}"
CROSS_CACHE="${ARGUS_CROSS_CACHE:-/var/cache/argus-cross}"
CHROOT="$(ARGUS_CROSS_CHROOT="$CROSS_CACHE/sid" "$ROOT/tools/cross-chroot.sh")"
mkdir -p "$OUT" "$CROSS_CACHE/target" "$CHROOT/argus" "$CHROOT/target" "$CHROOT/out"
[[ $platform != android ]] || "$ROOT/tools/reach/android-prepare.sh" "$CHROOT" "$CROSS_CACHE/dl"
exec unshare --mount --propagation private bash -c "set -e
    mount -t proc proc '$CHROOT/proc'
    mount --bind '$ROOT' '$CHROOT/argus'
    mount --bind '$CROSS_CACHE/target' '$CHROOT/target'
    mount --bind '$OUT' '$CHROOT/out'
    chroot '$CHROOT' bash -c 'source /argus/tools/cross-env.sh && source /argus/tools/reach/$platform.sh'"
