#!/usr/bin/env python3
"""Finds where a colour is in a PNG screenshot: the bounding boxes of its connected regions, as JSON.

    python3 TestAssets/Report/png_regions.py SHOT.png R G B [TOLERANCE]

Prints {"width","height","regions":[{"x","y","width","height","pixels"}...]}, largest first: pixels
whose every channel is within TOLERANCE (default 24) of (R, G, B), joined by 4-connectivity. Decodes the
8-bit, non-interlaced RGB or RGBA PNGs Chromium writes, with the standard library only (zlib for the
inflate, the five row filters here).
"""
import json
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit(f"{path}: only 8-bit non-interlaced RGB/RGBA (got depth {depth}, colour {colour})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + previous[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        previous = line
    return width, height, bpp, rows


def main():
    path, r, g, b = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    tolerance = int(sys.argv[5]) if len(sys.argv) > 5 else 24
    width, height, bpp, rows = decode(path)
    match = bytearray(width * height)
    for y, line in enumerate(rows):
        for x in range(width):
            i = x * bpp
            if abs(line[i] - r) <= tolerance and abs(line[i + 1] - g) <= tolerance and abs(line[i + 2] - b) <= tolerance:
                match[y * width + x] = 1
    regions = []
    for start in range(width * height):
        if match[start] != 1:
            continue
        match[start] = 2
        stack, xs, ys, count = [start], [], [], 0
        x0 = y0 = 1 << 30
        x1 = y1 = -1
        while stack:
            index = stack.pop()
            y, x = divmod(index, width)
            count += 1
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for n, ok in ((index - 1, x > 0), (index + 1, x < width - 1), (index - width, y > 0), (index + width, y < height - 1)):
                if ok and match[n] == 1:
                    match[n] = 2
                    stack.append(n)
        regions.append({"x": x0, "y": y0, "width": x1 - x0 + 1, "height": y1 - y0 + 1, "pixels": count})
    regions.sort(key=lambda region: -region["pixels"])
    print(json.dumps({"width": width, "height": height, "regions": regions}))


if __name__ == "__main__":
    main()
