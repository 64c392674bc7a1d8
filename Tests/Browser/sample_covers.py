"""Cover images for the screenshots, drawn here: PNGs of soft gradients and circles."""

import math
import struct
import zlib
from pathlib import Path

PALETTES = [
    ((38, 70, 83), (42, 157, 143), (233, 196, 106)),
    ((61, 64, 91), (129, 178, 154), (242, 204, 143)),
    ((94, 80, 63), (234, 224, 213), (198, 172, 143)),
    ((29, 53, 87), (69, 123, 157), (241, 250, 238)),
    ((112, 41, 99), (219, 127, 142), (255, 219, 218)),
    ((40, 54, 24), (96, 108, 56), (254, 250, 224)),
    ((20, 33, 61), (252, 163, 17), (229, 229, 229)),
    ((53, 80, 112), (181, 101, 118), (234, 172, 139)),
    ((58, 64, 72), (146, 120, 98), (226, 205, 170)),
    ((34, 34, 59), (154, 140, 152), (242, 233, 228)),
]


def png(width: int, height: int, rows: list) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + bytes(row) for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def mix(a, b, t):
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def cover(number: int, size: int = 240) -> bytes:
    dark, middle, light = PALETTES[(number * 7) % len(PALETTES)]
    cx = size * (0.3 + 0.4 * ((number * 37) % 11) / 10)
    cy = size * (0.3 + 0.4 * ((number * 53) % 13) / 12)
    radius = size * (0.16 + 0.16 * ((number * 71) % 9) / 8)
    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            colour = mix(dark, middle, (x + y) / (2 * size))
            edge = radius - math.hypot(x - cx, y - cy)
            if edge > -1:
                colour = mix(colour, light, min(1.0, edge + 1))
            row.extend(colour)
        rows.append(row)
    return png(size, size, rows)


def write_sample_covers(folder: Path, count: int) -> list:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        path = folder / f"cover-{number}.png"
        path.write_bytes(cover(number))
        paths.append(path)
    return paths
