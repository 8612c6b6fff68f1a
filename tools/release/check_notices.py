#!/usr/bin/env python3
"""Checks a third-party notice (cargo-about's, about.hbs) against the crates a library links.

    python3 tools/release/check_notices.py NOTICE.md PACKAGE

The crates are those `cargo tree -e normal` (no proc-macros: they are not linked) reaches from PACKAGE (argus: the C library; argus-godot:
the Godot add-on's library) for every platform in about.toml's `targets`, less the workspace's own.
Each must be listed in NOTICE as "- name version (licence)", and each licence named there must
have its text. Exits 1 naming what is missing: a dependency added without its notice, or a notice
generated from an older Cargo.lock.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def targets():
    text = open(os.path.join(ROOT, "about.toml"), encoding="utf-8").read()
    block = re.search(r"^targets\s*=\s*\[(.*?)\]", text, re.M | re.S)
    return re.findall(r'"([^"]+)"', block.group(1))


def linked(package):
    crates = set()
    for target in targets():
        out = subprocess.run(
            ["cargo", "tree", "--locked", "-q", "-p", package, "-e", "normal,no-proc-macro", "--target", target,
             "--prefix", "none", "--format", "{p}"],
            cwd=ROOT, check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"(\S+) v(\S+)(.*)$", line.strip())
            if m and "(/" not in m.group(3) and "(" + ROOT not in m.group(3):   # a path crate: ours
                crates.add((m.group(1), m.group(2)))
    return crates


def main():
    notice, package = sys.argv[1], sys.argv[2]
    text = open(notice, encoding="utf-8").read()
    listed = {(m.group(1), m.group(2)): m.group(3) for m in re.finditer(r"^- (\S+) (\S+) \((.+)\)$", text, re.M)}
    need = linked(package)
    missing = sorted(need - set(listed))
    texts = set(re.findall(r"^### .* \((\S+)\)$", text, re.M))
    for name, version in missing:
        print("%s: %s %s is linked into %s but has no notice" % (notice, name, version, package))
    # A licence expression's parts: each alternative needs at least one text; report only when none has.
    for crate, lic in listed.items():
        if crate in need and not any(part in texts for part in re.split(r"\s+(?:OR|AND)\s+|[()]", lic) if part):
            print("%s: no licence text for %s %s (%s)" % (notice, crate[0], crate[1], lic))
            missing.append(crate)
    print("%s: %d crates linked into %s (%d platforms), %d listed, %d missing; %d licence texts"
          % (os.path.basename(notice), len(need), package, len(targets()), len(listed), len(missing), len(texts)))
    return 1 if missing or not need else 0


if __name__ == "__main__":
    sys.exit(main())
