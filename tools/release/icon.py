#!/usr/bin/env python3
"""Writes the package icon (128x128 PNG, an eye: Argus's), made here so no binary is committed.

    python3 tools/release/icon.py OUT.png
"""
import math
import struct
import sys
import zlib

N = 128


def pixel(x, y):
    cx, cy = x - N / 2 + 0.5, y - N / 2 + 0.5
    r = math.hypot(cx, cy)
    if r > 62:
        return (0, 0, 0, 0)
    # The eye: an almond (two arcs) on a dark disc, an amber iris, a dark pupil.
    almond = abs(cy) < 34 * (1 - (cx / 52) ** 2) if abs(cx) < 52 else False
    if not almond:
        return (32, 40, 56, 255)
    if r < 10:
        return (16, 16, 24, 255)
    if r < 24:
        return (232, 168, 48, 255)
    return (240, 240, 236, 255)


def png(path):
    rows = b"".join(b"\x00" + b"".join(struct.pack("4B", *pixel(x, y)) for x in range(N)) for y in range(N))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", N, N, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(rows, 9)))
        f.write(chunk(b"IEND", b""))


if __name__ == "__main__":
    png(sys.argv[1])
