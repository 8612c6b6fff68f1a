#!/usr/bin/env python3
"""Checks the ad-hoc code signature of a thin 64-bit Mach-O file: every page hash of its
CodeDirectory must match the file as shipped. Apple Silicon refuses to load code whose signature
does not match, and the release edits the linker-signed dylib (install name, strip) afterwards.

    python3 tests/release/macho_signature.py FILE      exit 0 if valid; prints what it checked
"""
import hashlib
import struct
import sys

LC_CODE_SIGNATURE = 0x1D
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
HASHES = {1: hashlib.sha1, 2: hashlib.sha256}


def main(path):
    data = open(path, "rb").read()
    magic, _, _, _, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
    if magic != 0xFEEDFACF:
        sys.exit("%s: not a thin 64-bit Mach-O (lipo -thin first)" % path)
    off = 32
    sig = None
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == LC_CODE_SIGNATURE:
            sig = struct.unpack_from("<II", data, off + 8)
        off += size
    if sig is None:
        sys.exit("%s: no LC_CODE_SIGNATURE" % path)
    base = sig[0]
    smagic, _, count = struct.unpack_from(">III", data, base)
    assert smagic == CSMAGIC_EMBEDDED_SIGNATURE, "not an embedded signature"
    for i in range(count):
        _, boff = struct.unpack_from(">II", data, base + 12 + 8 * i)
        cd = base + boff
        if struct.unpack_from(">I", data, cd)[0] != CSMAGIC_CODEDIRECTORY:
            continue
        (_, _, _, _, hash_off, _, _, n_code, limit, hsize, htype, _, page_log) = struct.unpack_from(
            ">IIIIIIIIIBBBB", data, cd)
        page = 1 << page_log
        bad = 0
        for slot in range(n_code):
            chunk = data[slot * page:min((slot + 1) * page, limit)]
            want = data[cd + hash_off + slot * hsize:cd + hash_off + (slot + 1) * hsize]
            if HASHES[htype](chunk).digest()[:hsize] != want:
                bad += 1
        print("%s: %d pages, %d mismatched" % (path, n_code, bad))
        return 1 if bad else 0
    sys.exit("%s: no CodeDirectory" % path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
