#!/usr/bin/env python3
"""The one version number of Argus, and every place it is stamped into.

The source is `[workspace.package] version` in the root Cargo.toml (the three crates inherit it).
Everything else that carries a version is derived from it:

    python3 tools/version.py            print it
    python3 tools/version.py --stamp    write it into every derived place
    python3 tools/version.py --check    exit 1 if a derived place disagrees (a test runs this)
    python3 tools/version.py --release  --check, and exit 1 unless each changelog has this
                                        version's heading, `## [X.Y.Z] - YYYY-MM-DD` (the release
                                        command runs this first and refuses to build without it)

Release artifacts (CMake config, pkg-config file, UPM tarball, Godot zip, .nupkg) are stamped by
tools/release.sh from `python3 tools/version.py`; tests/suites/60-release.sh checks them.
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def version():
    text = read("Cargo.toml")
    m = re.search(r'^\[workspace\.package\]\s*\nversion = "(\d+)\.(\d+)\.(\d+)"', text, re.M)
    if not m:
        sys.exit("Cargo.toml: no [workspace.package] version")
    return m.groups()


def derived(major, minor, patch):
    """(file, regex with one group, the text that group must hold)."""
    v = "%s.%s.%s" % (major, minor, patch)
    return [
        ("Cargo.toml", r'argus-core = \{ path = "core", version = "([^"]*)"', v),
        ("godot/Cargo.toml", r'argus-core = \{ path = "\.\./core", version = "([^"]*)"', v),
        ("src/types.rs", r"ARGUS_VERSION_MAJOR: u32 = (\d+);", major),
        ("src/types.rs", r"ARGUS_VERSION_MINOR: u32 = (\d+);", minor),
        ("src/types.rs", r"ARGUS_VERSION_PATCH: u32 = (\d+);", patch),
        ("unity/package.json", r'"version": "([^"]*)"', v),
        ("unity/Runtime/Bindings/AssemblyInfo.cs", r'AssemblyVersion\("([^"]*)"\)', v + ".0"),
        ("unity/Runtime/Bindings/AssemblyInfo.cs", r'AssemblyInformationalVersion\("([^"]*)"\)', v),
        ("godot/addons/argus/argus.gdextension", r"; Argus (\S+)", v),
    ]


CHANGELOGS = ["CHANGELOG.md", "unity/CHANGELOG.md"]


def changelog_problems(v):
    """The changelogs that lack the heading of version v; a warning for entries under Unreleased."""
    problems = []
    heading = re.compile(r"^## \[%s\] - \d{4}-\d{2}-\d{2}\s*$" % re.escape(v), re.M)
    for rel in CHANGELOGS:
        text = read(rel)
        if not heading.search(text):
            problems.append("%s: no heading '## [%s] - YYYY-MM-DD': a release of %s needs its changes "
                            "under that heading (move them from [Unreleased])" % (rel, v, v))
        m = re.search(r"^## \[Unreleased\]\s*\n(.*?)(?=^## )", text, re.M | re.S)
        if m and re.search(r"^[-*] ", m.group(1), re.M):
            print("warning: %s: entries under [Unreleased] are not in %s" % (rel, v), file=sys.stderr)
    return problems


def main():
    parts = version()
    if len(sys.argv) == 1:
        print(".".join(parts))
        return 0
    stamp = "--stamp" in sys.argv
    problems = 0
    for rel, pattern, want in derived(*parts):
        text = read(rel)
        m = re.search(pattern, text)
        if not m:
            print("%s: no match for %s" % (rel, pattern))
            problems += 1
        elif m.group(1) != want:
            if stamp:
                text = text[:m.start(1)] + want + text[m.end(1):]
                with open(os.path.join(ROOT, rel), "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
                print("%s: %s -> %s" % (rel, m.group(1), want))
            else:
                print("%s: %s, expected %s (run python3 tools/version.py --stamp)" % (rel, m.group(1), want))
                problems += 1
    if "--check" in sys.argv or "--release" in sys.argv:
        print("version %s: %d places checked, %d disagree" % (".".join(parts), len(derived(*parts)), problems))
    if "--release" in sys.argv:
        for line in changelog_problems(".".join(parts)):
            print(line)
            problems += 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
