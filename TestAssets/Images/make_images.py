#!/usr/bin/env python3
"""Writes the image fixtures of ImageVerifierTests into this folder.

PNG, GIF and JPEG are encoded here with the standard library only (zlib for PNG's deflate; LZW and a
baseline JPEG encoder written out below), so the files are reproducible on any machine with Python 3.
WebP and HEIC are real encodings made through the system's libwebp and libheif (with its x265 plugin),
called with ctypes; the SVG and HTML samples are text. Run from anywhere:

    python3 TestAssets/Images/make_images.py

The outputs are committed; rerun only to change a fixture (and update README.md beside this script).
"""

import ctypes
import ctypes.util
import heapq
import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")


def picture(width, height):
    """A small RGB test picture: two gradients and a diagonal band, row-major list of (r, g, b)."""
    pixels = []
    for y in range(height):
        for x in range(width):
            r = 255 * x // max(1, width - 1)
            g = 255 * y // max(1, height - 1)
            b = 200 if abs(x - y) <= 1 else 40
            pixels.append((r, g, b))
    return pixels


# ---------------------------------------------------------------- PNG

def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def make_png(width, height):
    pixels = picture(width, height)
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type None
        for x in range(width):
            raw.extend(pixels[y * width + x])
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"tEXt", b"Comment\x00carillon fixture")
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + png_chunk(b"IEND", b""))


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def make_paletted_interlaced_png(width, height):
    """Colour type 3 at 4 bits, 16 entries, a tRNS, interlaced (Adam7): each pass's rows, packed two pixels a byte."""
    indices = [[(x + y) % 16 for x in range(width)] for y in range(height)]
    raw = bytearray()
    for (x0, y0, dx, dy) in ADAM7:
        columns = range(x0, width, dx)
        if not columns:
            continue
        for y in range(y0, height, dy):
            raw.append(0)  # filter type None
            row = [indices[y][x] for x in columns]
            if len(row) % 2:
                row.append(0)
            raw.extend((row[i] << 4) | row[i + 1] for i in range(0, len(row), 2))
    ihdr = struct.pack(">IIBBBBB", width, height, 4, 3, 0, 0, 1)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"PLTE", colour_table(palette16()))
            + png_chunk(b"tRNS", b"\x00")
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + png_chunk(b"IEND", b""))


# ---------------------------------------------------------------- GIF

def lzw_encode(indices, min_code_size):
    """GIF's variable-width LZW, least significant bit first, as image data sub-blocks."""
    clear = 1 << min_code_size
    end = clear + 1
    out = bytearray()
    bit_buffer = 0
    bit_count = 0

    def emit(code, width):
        nonlocal bit_buffer, bit_count
        bit_buffer |= code << bit_count
        bit_count += width
        while bit_count >= 8:
            out.append(bit_buffer & 0xFF)
            bit_buffer >>= 8
            bit_count -= 8

    def reset():
        return {(i,): i for i in range(clear)}, end + 1, min_code_size + 1

    table, next_code, width = reset()
    emit(clear, width)
    current = ()
    for index in indices:
        candidate = current + (index,)
        if candidate in table:
            current = candidate
            continue
        emit(table[current], width)
        if next_code < 4096:
            table[candidate] = next_code
            next_code += 1
            if next_code > (1 << width) and width < 12:
                width += 1
        else:
            emit(clear, width)
            table, next_code, width = reset()
        current = (index,)
    if current:
        emit(table[current], width)
    emit(end, width)
    if bit_count:
        out.append(bit_buffer & 0xFF)
    blocks = bytearray([min_code_size])
    for start in range(0, len(out), 255):
        piece = out[start:start + 255]
        blocks.append(len(piece))
        blocks.extend(piece)
    blocks.append(0)
    return bytes(blocks)


def palette16():
    colours = []
    for i in range(16):
        colours.append(((i * 17) & 0xFF, (255 - i * 13) & 0xFF, (i * 53) & 0xFF))
    return colours


def colour_table(colours):
    return b"".join(bytes(c) for c in colours)


def image_block(left, top, width, height, indices, local_table=None):
    flags = 0
    extra = b""
    if local_table is not None:
        flags = 0x80 | (int(math.log2(len(local_table))) - 1)
        extra = colour_table(local_table)
    return (b"\x2c" + struct.pack("<HHHHB", left, top, width, height, flags) + extra
            + lzw_encode(indices, 4))


def gce(delay, transparent=None):
    flags = 0x04 | (1 if transparent is not None else 0)  # dispose: restore to background
    return b"\x21\xf9\x04" + struct.pack("<BHB", flags, delay, transparent or 0) + b"\x00"


def make_static_gif(width, height):
    screen = struct.pack("<HHBBB", width, height, 0xF3, 0, 0)  # global table of 16 colours
    indices = [(x + y) % 16 for y in range(height) for x in range(width)]
    return (b"GIF89a" + screen + colour_table(palette16())
            + image_block(0, 0, width, height, indices) + b"\x3b")


def make_animated_gif(width, height):
    screen = struct.pack("<HHBBB", width, height, 0xF3, 0, 0)
    netscape = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"  # loop forever
    comment = b"\x21\xfe\x10carillon fixture\x00"
    frames = bytearray()
    for frame in range(3):
        indices = [(x * (frame + 1) + y) % 16 for y in range(height) for x in range(width)]
        local = None
        if frame == 1:
            local = [(255 - r, 255 - g, 255 - b) for (r, g, b) in palette16()]
        frames += gce(20, transparent=0 if frame == 2 else None)
        frames += image_block(0, 0, width, height, indices, local)
    return b"GIF89a" + screen + colour_table(palette16()) + netscape + comment + bytes(frames) + b"\x3b"


# ---------------------------------------------------------------- JPEG (baseline, 4:4:4, optimal Huffman tables)

ZIGZAG = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]
LUMA_Q = [  # ITU T.81 Annex K.1, in natural (row-major) order
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
]
CHROMA_Q = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
    24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
] + [99] * 32


def fdct(block):
    out = [0.0] * 64
    for v in range(8):
        for u in range(8):
            total = 0.0
            for y in range(8):
                for x in range(8):
                    total += (block[y * 8 + x] * math.cos((2 * x + 1) * u * math.pi / 16)
                              * math.cos((2 * y + 1) * v * math.pi / 16))
            cu = 1 / math.sqrt(2) if u == 0 else 1.0
            cv = 1 / math.sqrt(2) if v == 0 else 1.0
            out[v * 8 + u] = 0.25 * cu * cv * total
    return out


def category(value):
    return 0 if value == 0 else abs(value).bit_length()


def magnitude_bits(value, size):
    return value if value >= 0 else value + (1 << size) - 1


def huffman_table(frequencies):
    """Code lengths by Huffman's algorithm (JPEG Annex K.2's reserved all-ones code included), as BITS and HUFFVAL."""
    frequencies = dict(frequencies)
    frequencies[256] = 1  # reserves the all-ones code, which JPEG forbids
    heap = [(count, symbol, [symbol]) for symbol, count in frequencies.items()]
    heapq.heapify(heap)
    lengths = {symbol: 0 for symbol in frequencies}
    if len(heap) == 1:
        lengths[heap[0][1]] = 1
    while len(heap) > 1:
        c1, s1, g1 = heapq.heappop(heap)
        c2, s2, g2 = heapq.heappop(heap)
        for symbol in g1 + g2:
            lengths[symbol] += 1
        heapq.heappush(heap, (c1 + c2, min(s1, s2), g1 + g2))
    assert max(lengths.values()) <= 16, "a longer code needs Annex K.2's length limiting"
    # The reserved symbol must take the longest code so that no real symbol gets all ones.
    ordered = sorted(lengths.items(), key=lambda item: (item[1], item[0]))
    bits = [0] * 16
    values = []
    for symbol, length in ordered:
        if symbol == 256:
            continue
        bits[length - 1] += 1
        values.append(symbol)
    codes = {}
    code = 0
    k = 0
    for length in range(1, 17):
        for _ in range(bits[length - 1]):
            codes[values[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return bits, values, codes


class BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.buffer = 0
        self.count = 0

    def put(self, code, length):
        for i in range(length - 1, -1, -1):
            self.buffer = (self.buffer << 1) | ((code >> i) & 1)
            self.count += 1
            if self.count == 8:
                self.out.append(self.buffer)
                if self.buffer == 0xFF:
                    self.out.append(0x00)  # byte stuffing
                self.buffer = 0
                self.count = 0

    def flush(self):
        if self.count:
            self.put((1 << (8 - self.count)) - 1, 8 - self.count)
        return bytes(self.out)


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def make_jpeg(width, height):
    pixels = picture(width, height)
    planes = [[], [], []]
    for (r, g, b) in pixels:
        planes[0].append(0.299 * r + 0.587 * g + 0.114 * b)
        planes[1].append(-0.168736 * r - 0.331264 * g + 0.5 * b + 128)
        planes[2].append(0.5 * r - 0.418688 * g - 0.081312 * b + 128)
    tables = [LUMA_Q, CHROMA_Q, CHROMA_Q]
    blocks_x = (width + 7) // 8
    blocks_y = (height + 7) // 8
    # Interleaved MCU order, 4:4:4: one block of each component per MCU.
    symbols = []  # (component, dc_size, dc_bits, [(run_size, bits, size)])
    previous_dc = [0, 0, 0]
    for by in range(blocks_y):
        for bx in range(blocks_x):
            for c in range(3):
                block = []
                for y in range(8):
                    for x in range(8):
                        px = min(bx * 8 + x, width - 1)
                        py = min(by * 8 + y, height - 1)
                        block.append(planes[c][py * width + px] - 128)
                coefficients = fdct(block)
                quantised = [int(round(coefficients[i] / tables[c][i])) for i in range(64)]
                zz = [quantised[ZIGZAG[i]] for i in range(64)]
                diff = zz[0] - previous_dc[c]
                previous_dc[c] = zz[0]
                dc_size = category(diff)
                ac = []
                run = 0
                for value in zz[1:]:
                    if value == 0:
                        run += 1
                        continue
                    while run > 15:
                        ac.append((0xF0, 0, 0))
                        run -= 16
                    size = category(value)
                    ac.append(((run << 4) | size, magnitude_bits(value, size), size))
                    run = 0
                if run:
                    ac.append((0x00, 0, 0))
                symbols.append((c, dc_size, magnitude_bits(diff, dc_size), ac))
    dc_freq = [{}, {}]
    ac_freq = [{}, {}]
    for (c, dc_size, _, ac) in symbols:
        t = 0 if c == 0 else 1
        dc_freq[t][dc_size] = dc_freq[t].get(dc_size, 0) + 1
        for (rs, _, _) in ac:
            ac_freq[t][rs] = ac_freq[t].get(rs, 0) + 1
    dc_tables = [huffman_table(f) for f in dc_freq]
    ac_tables = [huffman_table(f) for f in ac_freq]
    writer = BitWriter()
    for (c, dc_size, dc_bits, ac) in symbols:
        t = 0 if c == 0 else 1
        code, length = dc_tables[t][2][dc_size]
        writer.put(code, length)
        if dc_size:
            writer.put(dc_bits, dc_size)
        for (rs, bits, size) in ac:
            code, length = ac_tables[t][2][rs]
            writer.put(code, length)
            if size:
                writer.put(bits, size)
    scan = writer.flush()

    out = bytearray(b"\xff\xd8")
    out += segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    out += segment(0xFE, b"carillon fixture")
    for index, table in enumerate([LUMA_Q, CHROMA_Q]):
        out += segment(0xDB, bytes([index]) + bytes(table[ZIGZAG[i]] for i in range(64)))
    out += segment(0xC0, struct.pack(">BHHB", 8, height, width, 3)
                   + bytes([1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))
    for index in range(2):
        for klass, table in ((0, dc_tables[index]), (1, ac_tables[index])):
            bits, values, _ = table
            out += segment(0xC4, bytes([(klass << 4) | index]) + bytes(bits) + bytes(values))
    out += segment(0xDA, bytes([3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]))
    out += scan
    out += b"\xff\xd9"
    return bytes(out)


def zigzag_blocks(width, height):
    """Each YCbCr component's quantised blocks (4:4:4) in raster order, each in zigzag order."""
    pixels = picture(width, height)
    planes = [[], [], []]
    for (r, g, b) in pixels:
        planes[0].append(0.299 * r + 0.587 * g + 0.114 * b)
        planes[1].append(-0.168736 * r - 0.331264 * g + 0.5 * b + 128)
        planes[2].append(0.5 * r - 0.418688 * g - 0.081312 * b + 128)
    tables = [LUMA_Q, CHROMA_Q, CHROMA_Q]
    components = [[], [], []]
    for by in range((height + 7) // 8):
        for bx in range((width + 7) // 8):
            for c in range(3):
                block = [planes[c][min(by * 8 + y, height - 1) * width + min(bx * 8 + x, width - 1)] - 128
                         for y in range(8) for x in range(8)]
                coefficients = fdct(block)
                quantised = [int(round(coefficients[i] / tables[c][i])) for i in range(64)]
                components[c].append([quantised[ZIGZAG[i]] for i in range(64)])
    return components


def ac_symbols(zz):
    """(run_size, bits, size) for coefficients 1...63 of one block, EOB0 (one block's end) if it ends in zeros."""
    out = []
    run = 0
    for value in zz[1:]:
        if value == 0:
            run += 1
            continue
        while run > 15:
            out.append((0xF0, 0, 0))
            run -= 16
        size = category(value)
        out.append(((run << 4) | size, magnitude_bits(value, size), size))
        run = 0
    if run:
        out.append((0x00, 0, 0))
    return out


def entropy_with_restarts(units, table_for, interval):
    """Codes each unit's (table, symbol, bits, size) list; a restart marker after every `interval` units."""
    out = bytearray()
    writer = BitWriter()
    for number, unit in enumerate(units):
        if number and number % interval == 0:
            out += writer.flush() + bytes([0xFF, 0xD0 + ((number // interval - 1) % 8)])
            writer = BitWriter()
        for (table, symbol, bits, size) in unit:
            code, length = table_for[table][2][symbol]
            writer.put(code, length)
            if size:
                writer.put(bits, size)
    return bytes(out + writer.flush())


def make_progressive_jpeg(width, height, interval=1):
    """Progressive (SOF2) by spectral selection: an interleaved DC scan, then one AC scan per component
    with its own AC table defined just before it; a restart interval of `interval` MCUs throughout."""
    components = zigzag_blocks(width, height)
    blocks = len(components[0])
    dc_units = []
    for index in range(blocks):
        if index % interval == 0:
            previous = [0, 0, 0]  # a restart resets the DC predictions
        unit = []
        for c in range(3):
            diff = components[c][index][0] - previous[c]
            previous[c] = components[c][index][0]
            size = category(diff)
            unit.append((0 if c == 0 else 1, size, magnitude_bits(diff, size), size))
        dc_units.append(unit)
    dc_freq = [{}, {}]
    for unit in dc_units:
        for (t, symbol, _, _) in unit:
            dc_freq[t][symbol] = dc_freq[t].get(symbol, 0) + 1
    dc_tables = [huffman_table(f) for f in dc_freq]

    out = bytearray(b"\xff\xd8")
    out += segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
    for index, table in enumerate([LUMA_Q, CHROMA_Q]):
        out += segment(0xDB, bytes([index]) + bytes(table[ZIGZAG[i]] for i in range(64)))
    out += segment(0xC2, struct.pack(">BHHB", 8, height, width, 3) + bytes([1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))
    out += segment(0xDD, struct.pack(">H", interval))
    for index in range(2):
        bits, values, _ = dc_tables[index]
        out += segment(0xC4, bytes([index]) + bytes(bits) + bytes(values))
    out += segment(0xDA, bytes([3, 1, 0x00, 2, 0x10, 3, 0x10, 0, 0, 0]))
    out += entropy_with_restarts(dc_units, dc_tables, interval)
    for c in range(3):
        units = [[(0,) + symbol for symbol in ac_symbols(zz)] for zz in components[c]]
        freq = {}
        for unit in units:
            for (_, symbol, _, _) in unit:
                freq[symbol] = freq.get(symbol, 0) + 1
        table = huffman_table(freq)
        out += segment(0xC4, bytes([0x10]) + bytes(table[0]) + bytes(table[1]))
        out += segment(0xDA, bytes([1, c + 1, 0x00, 1, 63, 0]))
        out += entropy_with_restarts(units, [table], interval)
    out += b"\xff\xd9"
    return bytes(out)


def make_multiscan_jpeg(width, height):
    """Sequential (SOF0) but not interleaved: one scan per component, each with its own DC and AC tables
    (numbered 0, 1, 2: table 2 exists only in a DHT), and a comment between the scans."""
    components = zigzag_blocks(width, height)
    out = bytearray(b"\xff\xd8")
    for index, table in enumerate([LUMA_Q, CHROMA_Q]):
        out += segment(0xDB, bytes([index]) + bytes(table[ZIGZAG[i]] for i in range(64)))
    out += segment(0xC0, struct.pack(">BHHB", 8, height, width, 3) + bytes([1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))
    for c in range(3):
        units = []
        previous = 0
        for zz in components[c]:
            diff = zz[0] - previous
            previous = zz[0]
            size = category(diff)
            units.append([(0, size, magnitude_bits(diff, size), size)] + [(1,) + symbol for symbol in ac_symbols(zz)])
        freqs = [{}, {}]
        for unit in units:
            for (t, symbol, _, _) in unit:
                freqs[t][symbol] = freqs[t].get(symbol, 0) + 1
        tables = [huffman_table(f) for f in freqs]
        for klass, table in ((0, tables[0]), (1, tables[1])):
            out += segment(0xC4, bytes([(klass << 4) | c]) + bytes(table[0]) + bytes(table[1]))
        out += segment(0xDA, bytes([1, c + 1, (c << 4) | c, 0, 63, 0]))
        out += entropy_with_restarts(units, tables, len(units))
        out += segment(0xFE, b"between scans")
    out += b"\xff\xd9"
    return bytes(out)


# ---------------------------------------------------------------- WebP and HEIC, through the system libraries

def load(name):
    path = ctypes.util.find_library(name)
    if path is None:
        raise SystemExit(f"lib{name} not found: install it (Debian: lib{name}-dev or its runtime package)")
    return ctypes.CDLL(path)


def raw_rgb(width, height):
    return bytes(channel for pixel in picture(width, height) for channel in pixel)


def make_webp(width, height):
    webp = load("webp")
    output = ctypes.POINTER(ctypes.c_uint8)()
    webp.WebPEncodeRGB.restype = ctypes.c_size_t
    size = webp.WebPEncodeRGB(raw_rgb(width, height), width, height, width * 3, ctypes.c_float(75),
                              ctypes.byref(output))
    if size == 0:
        raise SystemExit("WebPEncodeRGB failed")
    data = ctypes.string_at(output, size)
    webp.WebPFree(output)
    return data


class HeifError(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("subcode", ctypes.c_int), ("message", ctypes.c_char_p)]


def make_heic(width, height, path):
    heif = load("heif")
    for name in ("heif_context_get_encoder_for_format", "heif_image_create", "heif_image_add_plane",
                 "heif_context_encode_image", "heif_context_write_to_file", "heif_encoder_set_lossy_quality"):
        getattr(heif, name).restype = HeifError
    heif.heif_context_alloc.restype = ctypes.c_void_p
    heif.heif_image_get_plane.restype = ctypes.POINTER(ctypes.c_uint8)

    def check(error, what):
        if error.code != 0:
            raise SystemExit(f"{what}: {error.message.decode()}")

    context = ctypes.c_void_p(heif.heif_context_alloc())
    encoder = ctypes.c_void_p()
    check(heif.heif_context_get_encoder_for_format(context, 1, ctypes.byref(encoder)), "HEVC encoder")  # heif_compression_HEVC
    check(heif.heif_encoder_set_lossy_quality(encoder, 50), "quality")
    image = ctypes.c_void_p()
    check(heif.heif_image_create(width, height, 1, 10, ctypes.byref(image)), "image")  # RGB, interleaved RGB
    check(heif.heif_image_add_plane(image, 10, width, height, 8), "plane")  # heif_channel_interleaved
    stride = ctypes.c_int()
    plane = heif.heif_image_get_plane(image, 10, ctypes.byref(stride))
    rgb = raw_rgb(width, height)
    for y in range(height):
        ctypes.memmove(ctypes.addressof(plane.contents) + y * stride.value, rgb[y * width * 3:(y + 1) * width * 3],
                       width * 3)
    check(heif.heif_context_encode_image(context, image, encoder, None, None), "encode")
    check(heif.heif_context_write_to_file(context, path.encode()), "write")


# ---------------------------------------------------------------- text

SVG = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
  <rect width="16" height="16" fill="#2a6"/>
  <circle cx="8" cy="8" r="5" fill="#fc3"/>
</svg>
"""

HTML = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>404 Not Found</title></head>
<body><h1>Not Found</h1><p>The requested image was not found on this server.</p></body>
</html>
"""


def main():
    write("sample.png", make_png(16, 12))
    write("static.gif", make_static_gif(16, 12))
    write("animated.gif", make_animated_gif(16, 12))
    write("sample.jpg", make_jpeg(16, 16))
    write("progressive.jpg", make_progressive_jpeg(16, 16))
    write("paletted-interlaced.png", make_paletted_interlaced_png(16, 12))
    # A seed of the differential fuzz target only (its per-component scans and tables 2).
    with open(os.path.join(HERE, "..", "Fuzz", "Corpus", "FuzzImageDecoders", "multiscan-sequential.jpg"), "wb") as f:
        f.write(make_multiscan_jpeg(16, 16))
    # The same two as fuzz seeds (they decode with libjpeg-turbo and libpng).
    for target in ("FuzzImageVerifier", "FuzzImageDecoders"):
        seeds = os.path.join(HERE, "..", "Fuzz", "Corpus", target)
        for name, seed in (("progressive.jpg", "progressive-restart.jpg"), ("paletted-interlaced.png", None)):
            with open(os.path.join(HERE, name), "rb") as source, open(os.path.join(seeds, seed or name), "wb") as f:
                f.write(source.read())
    write("sample.webp", make_webp(16, 16))
    make_heic(64, 64, os.path.join(HERE, "sample.heic"))
    print(f"sample.heic: {os.path.getsize(os.path.join(HERE, 'sample.heic'))} bytes")
    write("sample.svg", SVG.encode())
    write("notfound.html", HTML.encode())


if __name__ == "__main__":
    main()
