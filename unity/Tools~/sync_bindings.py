#!/usr/bin/env python3
"""Copies the engine-agnostic C# bindings (bindings/csharp/Argus) into the package's Runtime/Bindings,
so the Runtime asmdef compiles them (a UPM package cannot reference sources outside its folder).
bindings/csharp is the only place they are edited; the copy is checked for staleness by the tests.

    python3 unity/Tools~/sync_bindings.py          copy (and write .meta files)
    python3 unity/Tools~/sync_bindings.py --check  exit 1 if the copy differs from bindings/csharp
"""
import filecmp
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, ".."))
SOURCE = os.path.normpath(os.path.join(PACKAGE, "..", "bindings", "csharp", "Argus"))
DEST = os.path.join(PACKAGE, "Runtime", "Bindings")
KEEP = {"README.md"}  # the copy's own note


def sources():
    out = []
    for dirpath, _, filenames in os.walk(SOURCE):
        for f in filenames:
            if f.endswith(".cs"):
                out.append(os.path.relpath(os.path.join(dirpath, f), SOURCE))
    return sorted(out)


def copies():
    out = []
    for dirpath, _, filenames in os.walk(DEST):
        for f in filenames:
            rel = os.path.relpath(os.path.join(dirpath, f), DEST)
            if not f.endswith(".meta") and rel not in KEEP:
                out.append(rel)
    return sorted(out)


def main():
    if not os.path.isdir(SOURCE):
        print("no bindings at " + SOURCE)
        return 1
    want, have = sources(), copies()
    stale = [r for r in want if r not in have or not filecmp.cmp(os.path.join(SOURCE, r), os.path.join(DEST, r), False)]
    extra = [r for r in have if r not in want]
    if "--check" in sys.argv:
        for r in stale:
            print("stale or missing: Runtime/Bindings/" + r)
        for r in extra:
            print("not in bindings/csharp: Runtime/Bindings/" + r)
        print("%d binding sources, %d stale, %d extra" % (len(want), len(stale), len(extra)))
        return 1 if stale or extra else 0
    for r in stale:
        os.makedirs(os.path.dirname(os.path.join(DEST, r)), exist_ok=True)
        shutil.copyfile(os.path.join(SOURCE, r), os.path.join(DEST, r))
    for r in extra:
        os.remove(os.path.join(DEST, r))
    # Remove folders the bindings no longer have, then refresh the .meta files.
    for dirpath, dirnames, filenames in sorted(os.walk(DEST, topdown=False)):
        if dirpath != DEST and not [f for f in os.listdir(dirpath) if not f.endswith(".meta")]:
            shutil.rmtree(dirpath)
    return subprocess.call([sys.executable, os.path.join(HERE, "metas.py")])


if __name__ == "__main__":
    sys.exit(main())
