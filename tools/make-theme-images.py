#!/usr/bin/env python3
"""Draw the PNG images of the themed example (examples/themes/harbour/images/).

Usage: tools/make-theme-images.py [DIR]    (default: examples/themes/harbour/images)

Node images for the four looks (idle, selected, error, success) with transparent
corners, and a background with a gradient and a wave. Antialiased by drawing each
pixel as 4x4 samples. Python 3 standard library only (zlib writes the PNG data), so
the committed images can be made again anywhere; the output is byte-for-byte the same
on every run.
"""

import math
import os
import struct
import sys
import zlib

SAMPLES = 4


def write_png(path, width, height, rows):
    """rows: height lists of width (r, g, b, a) tuples, 8 bits each."""
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path + ".partial", "wb") as f:
        f.write(png)
    os.replace(path + ".partial", path)


def render(width, height, shade):
    """shade(x, y) -> (r, g, b, a) in 0..1 at a point; averaged over SAMPLES^2 points a pixel."""
    rows = []
    for py in range(height):
        row = []
        for px in range(width):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    r, g, b, a = shade(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES)
                    # Premultiplied while averaging, so transparent samples add no colour.
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            n = SAMPLES * SAMPLES
            alpha = acc[3] / n
            if alpha <= 0:
                row.append((0, 0, 0, 0))
            else:
                row.append(tuple(round(255 * min(1.0, c / n / alpha)) for c in acc[:3]) + (round(255 * alpha),))
        rows.append(row)
    return rows


def hex_colour(text):
    return tuple(int(text[i:i + 2], 16) / 255 for i in (1, 3, 5))


def node(colour, fill, mark=None):
    """A ring of `colour` on a disc of `fill` (r, g, b, a), with an optional mark in the middle."""
    side = 96
    c = side / 2
    ring, width = 0.40 * side, 0.07 * side

    def shade(x, y):
        d = math.hypot(x - c, y - c)
        if mark and mark(x / side - 0.5, y / side - 0.5):
            return (1, 1, 1, 1)
        if abs(d - ring) <= width / 2:
            return colour + (1,)
        if d < ring:
            # A little lighter towards the top left: a lit bead rather than a flat dot.
            light = max(0.0, 1 - math.hypot(x - 0.38 * side, y - 0.38 * side) / ring) * 0.35
            return tuple(min(1, ch + light) for ch in fill[:3]) + (fill[3],)
        return (0, 0, 0, 0)

    return side, side, render(side, side, shade)


def on_segment(u, v, a, b, half_width):
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t = max(0, min(1, ((u - ax) * dx + (v - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(u - ax - t * dx, v - ay - t * dy) <= half_width


def cross(u, v):
    return on_segment(u, v, (-0.14, -0.14), (0.14, 0.14), 0.035) or on_segment(u, v, (-0.14, 0.14), (0.14, -0.14), 0.035)


def tick(u, v):
    return on_segment(u, v, (-0.15, 0.0), (-0.04, 0.12), 0.035) or on_segment(u, v, (-0.04, 0.12), (0.16, -0.12), 0.035)


def backdrop():
    width, height = 320, 192
    top, bottom = hex_colour("#062A3A"), hex_colour("#0E4D5C")
    foam = hex_colour("#1C6F7A")

    def shade(x, y):
        t = y / height
        base = tuple(top[i] * (1 - t) + bottom[i] * t for i in range(3))
        # Two gentle waves along the bottom, the harbour's mark.
        for phase, level in ((0.0, 0.80), (1.7, 0.88)):
            wave = level * height + 6 * math.sin(2 * math.pi * x / width * 2 + phase)
            if y > wave:
                base = tuple(0.6 * base[i] + 0.4 * foam[i] for i in range(3))
        return base + (1,)

    return width, height, render(width, height, shade)


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "examples", "themes", "harbour", "images")
    os.makedirs(folder, exist_ok=True)
    white = (1.0, 1.0, 1.0)
    amber, red, green = hex_colour("#FFB000"), hex_colour("#F0454B"), hex_colour("#3CC873")
    images = {
        "node.png": node(hex_colour("#9FC4CC"), (0.05, 0.2, 0.26, 0.55)),
        "node-selected.png": node(white, amber + (0.95,)),
        "node-error.png": node(white, red + (0.95,), cross),
        "node-success.png": node(white, green + (0.95,), tick),
        "backdrop.png": backdrop(),
    }
    for name, (width, height, rows) in images.items():
        path = os.path.join(folder, name)
        write_png(path, width, height, rows)
        print(f"{path}: {width}x{height}")


main()
