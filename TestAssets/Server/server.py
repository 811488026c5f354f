#!/usr/bin/env python3
"""Local HTTPS test server for carillon-nse image-download tests.

Standard library only (plus the `openssl` command line for certificates).
Every response is scripted so that each edge case of SPEC §2 (HTTPS only,
redirect limit, 10 MiB cap, status, Content-Encoding, type by magic bytes,
stalls) can be produced on demand.  See README.md beside this file for the
route catalogue and the outcome the client is expected to report for each.

Usage:
    python3 server.py [--port 0] [--state-dir DIR] [--ready-file FILE]
                      [--exit-on-stdin-eof] [--verbose]

When ready it prints one line of JSON to stdout (and writes it atomically to
--ready-file), then serves until SIGTERM/SIGINT (or stdin EOF with
--exit-on-stdin-eof).
"""

import argparse
import gzip
import json
import os
import shutil
import signal
import socket
import socketserver
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# PNG chunks are the fixture generator's (TestAssets/Images/make_images.py): one writer for both.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "Images"))
from make_images import png_chunk  # noqa: E402

LOOPBACK = "127.0.0.1"          # the only address we ever bind
CAP = 10 * 1024 * 1024          # SPEC §2: 10 MiB body cap
GIB = 1024 * 1024 * 1024
POLL = 0.1                      # granularity of every wait: bounds shutdown latency
STOP = threading.Event()        # set on SIGTERM/SIGINT/stdin EOF; every loop checks it
VERBOSE = False


def log(msg):
    if VERBOSE:
        print(f"[server] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Images: the fixtures of TestAssets/Images/ (make_images.py is their one encoder), read at start-up.
# ---------------------------------------------------------------------------

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "Images")

# /img/png is sample.png padded to this size, so that the routes sending only its first 40 / 100 / 1000
# bytes (/bad/truncated-png, /stall/body, /bad/truncated-body) cut inside the image.
PNG_BYTES = 11352


def fixture(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


PNG_TEXT_OVERHEAD = 12 + len(b"Comment\0")   # chunk length+type+CRC, keyword


def pad_png(png, total):
    """The same PNG grown to exactly `total` bytes with a tEXt chunk before IEND."""
    pad = total - len(png)
    if pad == 0:
        return png
    assert pad >= PNG_TEXT_OVERHEAD
    text = b"Comment\0" + (b"carillon padding " * (pad // 17 + 1))[:pad - PNG_TEXT_OVERHEAD]
    iend = len(png) - 12
    return png[:iend] + png_chunk(b"tEXt", text) + png[iend:]


def jpeg_head_len(jpeg):
    """Where padding goes in a JPEG: after SOI and its first segment (APP0, JFIF)."""
    assert jpeg[:4] == b"\xFF\xD8\xFF\xE0", "the JPEG fixture starts SOI APP0"
    (length,) = struct.unpack(">H", jpeg[4:6])
    return 4 + length


class Images:
    """All payloads, read once at start-up."""

    def __init__(self):
        self.png = pad_png(fixture("sample.png"), PNG_BYTES)
        # One pure red pixel, the one image not from a fixture: the HTML report's browser test
        # (ReportBrowserTests) finds the attached image by its red pixels, and no fixture is a single
        # colour (sample.png is gradients); the 69-byte size is also the smallest /size/png and /trickle.
        self.tiny_png = (b"\x89PNG\r\n\x1a\n"
                         + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
                         + png_chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00", 9))
                         + png_chunk(b"IEND", b""))
        self.gif = fixture("static.gif")
        self.gif_animated = fixture("animated.gif")
        self.jpeg = fixture("sample.jpg")
        # Split point for padding: SOI + APP0(JFIF) | COM filler | the rest ... EOI
        self.jpeg_head_len = jpeg_head_len(self.jpeg)
        self.webp = fixture("sample.webp")
        self.heic = fixture("sample.heic")
        self.svg = fixture("sample.svg")
        self.html = fixture("notfound.html")
        self.text = b"This is plain text, not an image.\n"
        # A full-size COM segment (65535-byte length field => 65537 bytes), reused.
        self._com_full = self._com(65537)
        # The last PNG /size/png made (one size at a time).
        self.sized_png = None
        # Encoded bodies made on first use (brotli, zstd, the gzip bomb, a gzip PNG of a size).
        self._lock = threading.Lock()
        self._encoded = {}
        self._bomb = None
        self._gzip_sized = None

    def encoded(self, name):
        """The padded PNG in coding `name` ("br", "gzip-br", "zstd"), made once with the `brotli` and
        `zstd` command-line tools (Python's standard library has neither)."""
        with self._lock:
            if name not in self._encoded:
                if name == "br":
                    body = run_filter(["brotli", "-c", "-q", "5"], self.png)
                elif name == "gzip-br":
                    body = run_filter(["brotli", "-c", "-q", "5"], gzip.compress(self.png, mtime=0))
                elif name == "zstd":
                    body = run_filter(["zstd", "-c", "-q"], self.png)
                else:
                    raise ValueError(name)
                self._encoded[name] = body
            return self._encoded[name]

    def gzip_bomb(self):
        """64 MiB of zeros, gzip-compressed piece by piece (about 64 KiB): made once, never stored."""
        with self._lock:
            if self._bomb is None:
                comp = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
                zeros = bytes(1024 * 1024)
                self._bomb = b"".join(comp.compress(zeros) for _ in range(64)) + comp.flush()
            return self._bomb

    def gzip_png_of_size(self, n):
        """A valid PNG of exactly n decoded bytes, gzip-encoded (the last size asked for is kept)."""
        with self._lock:
            if self._gzip_sized is None or self._gzip_sized[0] != n:
                png = self.png_of_size(n)
                if png is None:
                    raise ValueError(f"no valid PNG of {n} bytes")
                self._gzip_sized = (n, gzip.compress(png, compresslevel=6, mtime=0))
            return self._gzip_sized[1]

    @staticmethod
    def _com(total):
        """A COM segment of exactly `total` bytes (4 .. 65537)."""
        filler = (b"carillon-filler " * (total // 16 + 1))[:total - 4]
        return b"\xFF\xFE" + struct.pack(">H", total - 2) + filler

    def jpeg_sizes_ok(self, n):
        return n == len(self.jpeg) or n >= len(self.jpeg) + 4

    def jpeg_pieces(self, n):
        """Yield a structurally valid JPEG of exactly n bytes, in pieces of at
        most 65537 bytes, without ever holding it whole (1 GiB is fine)."""
        if not self.jpeg_sizes_ok(n):
            raise ValueError(n)
        if n == len(self.jpeg):
            yield self.jpeg
            return
        yield self.jpeg[:self.jpeg_head_len]
        pad = n - len(self.jpeg)
        while pad > 0 and not STOP.is_set():
            seg = min(pad, 65537)
            if 0 < pad - seg < 4:     # never leave a remainder too small for a segment
                seg -= 4
            yield self._com_full if seg == 65537 else self._com(seg)
            pad -= seg
        yield self.jpeg[self.jpeg_head_len:]

    def png_of_size(self, n):
        """A valid PNG of exactly n bytes, or None if no padding can reach n."""
        for base in (self.png, self.tiny_png):
            if n == len(base) or n >= len(base) + PNG_TEXT_OVERHEAD:
                return pad_png(base, n)
        return None


IMAGES = None   # set in main()


def run_filter(cmd, data):
    """`data` through a command-line filter (`brotli -c`, `zstd -c`): its standard output."""
    try:
        done = subprocess.run(cmd, input=data, capture_output=True, check=False)
    except FileNotFoundError:
        raise RuntimeError(f"{cmd[0]} is not installed (Debian package '{cmd[0]}'; TestAssets/test.sh installs it)")
    if done.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed: {done.stderr.decode(errors='replace')}")
    return done.stdout


# ---------------------------------------------------------------------------
# Statistics, per listener.
# ---------------------------------------------------------------------------

class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.connections = 0      # TCP connections accepted
            self.tls_failures = 0     # handshakes that failed (client refused our cert...)
            self.tls_handshakes = 0   # handshakes that completed, full or resumed
            self.tls_resumed = 0      # of those, the ones that resumed an earlier session (no certificate sent)
            self.active = 0           # requests being served right now
            self.requests = Counter()
            self.targets = Counter()  # by path and query: each distinct image URL of a campaign

    def add(self, field, delta=1):
        with self.lock:
            setattr(self, field, getattr(self, field) + delta)

    def count_request(self, path, target=None):
        with self.lock:
            self.requests[path] += 1
            self.targets[target or path] += 1

    def count_target(self, target):
        """How many requests `target` (path and query) had, this one included."""
        with self.lock:
            return self.targets[target]

    def snapshot(self):
        with self.lock:
            return {"connections": self.connections, "tls_failures": self.tls_failures,
                    "tls_handshakes": self.tls_handshakes, "tls_resumed": self.tls_resumed,
                    "active_requests": self.active, "total_requests": sum(self.requests.values()),
                    "requests": dict(sorted(self.requests.items())),
                    "targets": dict(sorted(self.targets.items()))}


# ---------------------------------------------------------------------------
# HTTP handler: one instance per connection, one call to route() per request.
# ---------------------------------------------------------------------------

ROUTES = {}          # exact path -> handler method name
PREFIX_ROUTES = []   # (prefix, method name): the rest of the path is an argument


def route(*paths, prefix=None):
    def register(fn):
        for p in paths:
            ROUTES[p] = fn.__name__
        if prefix:
            PREFIX_ROUTES.append((prefix, fn.__name__))
        return fn
    return register


def _int_param(query, name, default, minimum=0, maximum=64 * GIB):
    value = int(query.get(name, [default])[0])
    if not minimum <= value <= maximum:
        raise ValueError(f"{name}={value} out of range")
    return value


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"      # keep-alive: every response is framed
    timeout = 60                       # idle keep-alive connections are dropped

    def version_string(self):
        return "carillon-test-server"

    def setup(self):
        super().setup()
        self.requests_on_connection = 0
        self.head_only = False

    def log_message(self, fmt, *args):    # quiet unless --verbose
        log(f"{self.server.name} {self.address_string()} {fmt % args}")

    def handle(self):
        try:
            super().handle()
        except (OSError, ssl.SSLError) as exc:   # client went away: not an error
            log(f"connection ended: {exc!r}")

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    def do_GET(self):
        self.dispatch()

    def do_HEAD(self):
        self.head_only = True
        try:
            self.dispatch()
        finally:
            self.head_only = False

    # -- dispatch -----------------------------------------------------------

    def dispatch(self):
        url = urlsplit(self.path)
        path, query = url.path, parse_qs(url.query)
        stats = self.server.stats
        self.requests_on_connection += 1
        if path.startswith("/stats"):
            # Control requests are invisible in the figures they report: the
            # connection that carries them is not counted either.
            if self.requests_on_connection == 1:
                stats.add("connections", -1)
                if isinstance(self.request, ssl.SSLSocket):
                    stats.add("tls_handshakes", -1)
                    if self.request.session_reused:
                        stats.add("tls_resumed", -1)
            return self.control(path)
        stats.count_request(path, self.path)
        stats.add("active")
        try:
            name = ROUTES.get(path)
            arg = None
            if name is None:
                for prefix, candidate in PREFIX_ROUTES:
                    if path.startswith(prefix):
                        name, arg = candidate, path[len(prefix):]
                        break
            if name is None:
                return self.send_html(404, "Not Found")
            try:
                handler = getattr(self, name)
                return handler(query) if arg is None else handler(query, arg)
            except ValueError as exc:        # bad query parameter
                return self.send_bytes(400, "text/plain", f"bad request: {exc}\n".encode())
        finally:
            stats.add("active", -1)

    def control(self, path):
        if path == "/stats/reset":
            for server in ALL_LISTENERS.values():
                server.stats.reset()
            return self.send_json({"reset": True})
        if path == "/stats":
            body = self.server.stats.snapshot()
            body["listeners"] = {name: srv.stats.snapshot()
                                 for name, srv in ALL_LISTENERS.items() if srv is not self.server}
            return self.send_json(body)
        return self.send_html(404, "Not Found")

    # -- response helpers ----------------------------------------------------

    def start(self, status, content_type=None, headers=(), length=None):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def write(self, data):
        if not self.head_only:
            self.wfile.write(data)

    def send_bytes(self, status, content_type, body, headers=()):
        self.start(status, content_type, headers, len(body))
        self.write(body)

    def send_html(self, status, title):
        body = f"<!DOCTYPE html>\n<html><body><h1>{status} {title}</h1></body></html>\n"
        self.send_bytes(status, "text/html; charset=utf-8", body.encode())

    def send_json(self, obj):
        self.send_bytes(200, "application/json", (json.dumps(obj, indent=1) + "\n").encode())

    def send_chunked(self, content_type, pieces):
        self.send_chunked_with(content_type, pieces, [])

    def send_chunked_with(self, content_type, pieces, headers):
        self.start(200, content_type, [("Transfer-Encoding", "chunked"), *headers])
        if self.head_only:
            return
        for piece in pieces:
            if STOP.is_set():
                self.close_connection = True
                return
            self.wfile.write(b"%x\r\n%b\r\n" % (len(piece), piece))
        self.wfile.write(b"0\r\n\r\n")

    def send_streamed(self, content_type, length, pieces):
        self.start(200, content_type, length=length)
        if self.head_only:
            return
        for piece in pieces:
            if STOP.is_set():
                self.close_connection = True
                return
            self.wfile.write(piece)

    def send_streamed_status(self, status, content_type, length):
        """`status` with a body of `length` filler bytes, streamed until the client hangs up."""
        self.start(status, content_type, length=length)
        if self.head_only:
            return
        piece = b"x" * 65536
        sent = 0
        while sent < length and not STOP.is_set():
            self.wfile.write(piece[:length - sent])
            sent += len(piece)

    def redirect(self, status, location):
        self.send_bytes(status, "text/plain", f"Redirecting to {location}\n".encode(),
                        [("Location", location)])

    def hold(self, seconds):
        """Wait up to `seconds` without sending, reading and discarding anything
        the client sends.  Returns True if the whole time passed, False as soon
        as the client disconnects or the server is stopping."""
        return hold_socket(self.connection, seconds)

    # -- images ----------------------------------------------------------------

    @route("/img/jpeg")
    def img_jpeg(self, q):
        self.send_bytes(200, "image/jpeg", IMAGES.jpeg)

    @route("/img/png")
    def img_png(self, q):
        self.send_bytes(200, "image/png", IMAGES.png)

    @route("/img/flaky")
    def img_flaky(self, q):
        """A CDN that answers differently from one request to the next: the PNG to the first request
        for this path and query, 503 to the second, and so on (the shards of a campaign sharded by
        position each ask once, and disagree)."""
        if self.server.stats.count_target(self.path) % 2 == 1:
            return self.send_bytes(200, "image/png", IMAGES.png)
        self.send_html(503, "Service Unavailable")

    @route("/img/png-set-cookie")
    def img_png_set_cookie(self, q):
        """The PNG with `Set-Cookie: sid=<c>-COOKIE` (a recording must redact it)."""
        self.send_bytes(200, "image/png", IMAGES.png, [("Set-Cookie", f"sid={q.get('c', ['x'])[0]}-COOKIE; Secure")])

    @route("/img/tiny-png")
    def img_tiny_png(self, q):
        self.send_bytes(200, "image/png", IMAGES.tiny_png)

    @route("/img/gif")
    def img_gif(self, q):
        self.send_bytes(200, "image/gif", IMAGES.gif)

    @route("/img/gif-animated")
    def img_gif_animated(self, q):
        self.send_bytes(200, "image/gif", IMAGES.gif_animated)

    @route("/img/jpeg-no-eoi")
    def img_jpeg_no_eoi(self, q):
        # The JPEG without its final EOI marker: every decoder still shows it, so the verdict is
        # `attached` with a warning naming the missing marker.
        assert IMAGES.jpeg.endswith(b"\xff\xd9")
        self.send_bytes(200, "image/jpeg", IMAGES.jpeg[:-2])

    @route("/img/png-as-jpeg")
    def img_png_as_jpeg(self, q):
        self.send_bytes(200, "image/jpeg", IMAGES.png)

    @route("/img/html-as-png")
    def img_html_as_png(self, q):
        self.send_bytes(200, "image/png", IMAGES.html)

    @route("/img/png-as-octet")
    def img_png_as_octet(self, q):
        self.send_bytes(200, "application/octet-stream", IMAGES.png)

    @route("/img/looks-like.jpg")
    def img_looks_like_jpg(self, q):
        self.send_bytes(200, "image/png", IMAGES.png)

    # -- unsupported or broken bodies ----------------------------------------------

    @route("/bad/webp")
    def bad_webp(self, q):
        self.send_bytes(200, "image/webp", IMAGES.webp)

    @route("/bad/heic")
    def bad_heic(self, q):
        self.send_bytes(200, "image/heic", IMAGES.heic)

    @route("/bad/svg")
    def bad_svg(self, q):
        self.send_bytes(200, "image/svg+xml", IMAGES.svg)

    @route("/bad/html")
    def bad_html(self, q):
        self.send_bytes(200, "text/html; charset=utf-8", IMAGES.html)

    @route("/bad/text")
    def bad_text(self, q):
        self.send_bytes(200, "text/plain; charset=utf-8", IMAGES.text)

    @route("/bad/truncated-png")
    def bad_truncated_png(self, q):
        self.send_bytes(200, "image/png", IMAGES.png[:40])

    @route("/bad/truncated-body")
    def bad_truncated_body(self, q):
        # Promise 5000 bytes, deliver 1000, hang up: a partial transfer.
        self.start(200, "image/png", length=5000)
        self.write(IMAGES.png[:1000])
        self.close_connection = True

    @route("/bad/empty")
    def bad_empty(self, q):
        self.send_bytes(200, "image/png", b"")

    # -- framing errors --------------------------------------------------------------

    @route("/bad/http09")
    def bad_http09(self, q):
        # No status line, no headers: an HTTP/0.9 reply.
        self.close_connection = True
        if not self.head_only:
            self.wfile.write(IMAGES.png)

    # -- hostile text (issue 22) --------------------------------------------------
    # ?c=HEX names one character (a code point, e.g. 1b, 85, 202e) that the tool must never show raw:
    # /hostile/redirect answers 302 with it in the reason phrase, the Content-Type and the Location
    # (which leads to /hostile/png); /hostile/png answers 200 with it in the reason phrase and the
    # Content-Type, and a PNG. Written as raw UTF-8 bytes: http.server would refuse them.

    def send_hostile_head(self, status, reason, fields, body):
        self.close_connection = True
        head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields)
        head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        self.wfile.write(head.encode("utf-8", "surrogateescape"))
        self.write(body)

    @route("/hostile/redirect")
    def hostile_redirect(self, q):
        code = q.get("c", ["1b"])[0]
        c = chr(int(code, 16))
        self.send_hostile_head(302, "Found" + c, [("Content-Type", "text/plain" + c),
                                                  ("Location", f"/hostile/png?c={code}&v=x{c}y")], b"")

    @route("/hostile/png")
    def hostile_png(self, q):
        c = chr(int(q.get("c", ["1b"])[0], 16))
        self.send_hostile_head(200, "OK" + c, [("Content-Type", "image/png" + c)], IMAGES.png)

    @route("/bad/status-line")
    def bad_status_line(self, q):
        self.close_connection = True
        self.wfile.write(b"HTTP/1.1 2OO OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n"
                         % len(IMAGES.png))
        self.write(IMAGES.png)

    @route("/bad/content-length-conflict")
    def bad_content_length_conflict(self, q):
        self.close_connection = True
        n = len(IMAGES.png)
        self.start(200, "image/png", [("Content-Length", str(n)), ("Content-Length", str(n - 100))])
        self.write(IMAGES.png)

    @route("/bad/content-length-repeated")
    def bad_content_length_repeated(self, q):
        # The same length twice: RFC 9110 lets a recipient accept it.
        n = len(IMAGES.png)
        self.start(200, "image/png", [("Content-Length", str(n)), ("Content-Length", str(n))])
        self.write(IMAGES.png)

    @route("/bad/chunking")
    def bad_chunking(self, q):
        # A valid first chunk, then a chunk size that is not hexadecimal.
        self.close_connection = True
        self.start(200, "image/png", [("Transfer-Encoding", "chunked")])
        if not self.head_only:
            self.wfile.write(b"%x\r\n%b\r\nzz\r\n%b\r\n0\r\n\r\n" % (100, IMAGES.png[:100], IMAGES.png[100:]))

    @route("/bad/status-404-large")
    def bad_status_404_large(self, q):
        # A 404 announcing 11 MiB: a wrong status, whatever its length.
        self.send_streamed_status(404, "text/html", 11 * 1024 * 1024)

    # -- size and framing ----------------------------------------------------------

    @route("/size/cap")
    def size_cap(self, q):
        self.send_streamed("image/jpeg", CAP, IMAGES.jpeg_pieces(CAP))

    @route("/size/cap-plus-1")
    def size_cap_plus_1(self, q):
        self.send_streamed("image/jpeg", CAP + 1, IMAGES.jpeg_pieces(CAP + 1))

    @route("/size/cap-chunked")
    def size_cap_chunked(self, q):
        self.send_chunked("image/jpeg", IMAGES.jpeg_pieces(CAP))

    @route("/size/cap-plus-1-chunked")
    def size_cap_plus_1_chunked(self, q):
        self.send_chunked("image/jpeg", IMAGES.jpeg_pieces(CAP + 1))

    @route("/size/gigabyte-chunked")
    def size_gigabyte_chunked(self, q):
        self.send_chunked("image/jpeg", IMAGES.jpeg_pieces(GIB))

    def _jpeg_size_param(self, q):
        n = _int_param(q, "bytes", len(IMAGES.jpeg))
        if not IMAGES.jpeg_sizes_ok(n):
            raise ValueError(f"bytes must be {len(IMAGES.jpeg)} or >= {len(IMAGES.jpeg) + 4}")
        return n

    @route("/size/n")
    def size_n(self, q):
        n = self._jpeg_size_param(q)
        self.send_streamed("image/jpeg", n, IMAGES.jpeg_pieces(n))

    @route("/size/png")
    def size_png(self, q):
        # A valid PNG of exactly N bytes (a tEXt chunk pads it): every byte of it is under a CRC, so the
        # client's verification reads all of it. The last size asked for is kept (the benchmark asks
        # for 10 MiB again and again).
        n = _int_param(q, "bytes", len(IMAGES.png))
        cached = IMAGES.sized_png
        if cached is None or len(cached) != n:
            cached = IMAGES.png_of_size(n)
            if cached is None:
                raise ValueError(f"bytes must be {len(IMAGES.tiny_png)}, {len(IMAGES.png)} or "
                                 f">= {len(IMAGES.tiny_png) + PNG_TEXT_OVERHEAD}")
            IMAGES.sized_png = cached
        self.send_bytes(200, "image/png", cached)

    @route("/size/n-chunked")
    def size_n_chunked(self, q):
        n = self._jpeg_size_param(q)
        self.send_chunked("image/jpeg", IMAGES.jpeg_pieces(n))

    @route("/size/eof")
    def size_eof(self, q):
        # HTTP/1.1 without Content-Length or chunking: the body ends at EOF.
        n = self._jpeg_size_param(q)
        self.start(200, "image/jpeg", [("Connection", "close")])
        self.close_connection = True
        if not self.head_only:
            for piece in IMAGES.jpeg_pieces(n):
                self.wfile.write(piece)

    # -- content encoding ---------------------------------------------------------
    # URLSession asks for gzip, deflate and br and decodes them (SPEC §2): these are attached once
    # decoded; any other coding is refused on the header alone.

    @route("/enc/gzip")
    def enc_gzip(self, q):
        self.send_bytes(200, "image/png", gzip.compress(IMAGES.png, mtime=0),
                        [("Content-Encoding", "gzip")])

    @route("/enc/deflate")
    def enc_deflate(self, q):
        # HTTP's "deflate" is the zlib format (RFC 9110 §8.4.1.2).
        self.send_bytes(200, "image/png", zlib.compress(IMAGES.png, 9), [("Content-Encoding", "deflate")])

    @route("/enc/br")
    def enc_br(self, q):
        self.send_bytes(200, "image/png", IMAGES.encoded("br"), [("Content-Encoding", "br")])

    @route("/enc/gzip-then-br")
    def enc_gzip_then_br(self, q):
        # Two codings, applied in the order listed: gzip first, then br over it.
        self.send_bytes(200, "image/png", IMAGES.encoded("gzip-br"), [("Content-Encoding", "gzip, br")])

    @route("/enc/gzip-upper")
    def enc_gzip_upper(self, q):
        # Coding names are case-insensitive.
        self.send_bytes(200, "image/png", gzip.compress(IMAGES.png, mtime=0), [("Content-Encoding", "GZip")])

    @route("/enc/gzip-chunked")
    def enc_gzip_chunked(self, q):
        body = gzip.compress(IMAGES.png, mtime=0)
        self.send_chunked_with("image/png", [body[i:i + 1000] for i in range(0, len(body), 1000)],
                               [("Content-Encoding", "gzip")])

    @route("/enc/zstd")
    def enc_zstd(self, q):
        # Real zstd (libcurl could decode it): URLSession does not, so it must be refused on the head.
        self.send_bytes(200, "image/png", IMAGES.encoded("zstd"), [("Content-Encoding", "zstd")])

    @route("/enc/compress")
    def enc_compress(self, q):
        self.send_bytes(200, "image/png", IMAGES.png, [("Content-Encoding", "compress")])

    @route("/enc/unknown")
    def enc_unknown(self, q):
        self.send_bytes(200, "image/png", IMAGES.png, [("Content-Encoding", "gzip, x-carillon")])

    @route("/enc/bad-gzip")
    def enc_bad_gzip(self, q):
        # Says gzip, sends the plain PNG: the body does not decode.
        self.send_bytes(200, "image/png", IMAGES.png, [("Content-Encoding", "gzip")])

    @route("/enc/gzip-bomb")
    def enc_gzip_bomb(self, q):
        # 64 MiB of zeros in about 64 KiB of gzip, made once at the first request, never stored.
        self.send_bytes(200, "image/png", IMAGES.gzip_bomb(), [("Content-Encoding", "gzip")])

    @route("/enc/gzip-size")
    def enc_gzip_size(self, q):
        # A valid PNG of exactly ?bytes=N decoded bytes, gzip-encoded, with its (encoded) length.
        n = _int_param(q, "bytes", len(IMAGES.png))
        self.send_bytes(200, "image/png", IMAGES.gzip_png_of_size(n), [("Content-Encoding", "gzip")])

    @route("/enc/identity-then-gzip")
    def enc_identity_then_gzip(self, q):
        # Two Content-Encoding headers: the second one counts as much as the first.
        self.send_bytes(200, "image/png", gzip.compress(IMAGES.png, mtime=0),
                        [("Content-Encoding", "identity"), ("Content-Encoding", "gzip")])

    @route("/enc/te-gzip-chunked")
    def enc_te_gzip_chunked(self, q):
        # A transfer coding other than chunked: must be refused, never decoded.
        body = gzip.compress(IMAGES.png, mtime=0)
        self.start(200, "image/png", [("Transfer-Encoding", "gzip, chunked")])
        if not self.head_only:
            self.wfile.write(b"%x\r\n%b\r\n0\r\n\r\n" % (len(body), body))

    @route("/enc/identity")
    def enc_identity(self, q):
        self.send_bytes(200, "image/png", IMAGES.png, [("Content-Encoding", "identity")])

    # -- redirects -----------------------------------------------------------------

    @route("/redirect/relative")
    def redirect_relative(self, q):
        self.redirect(302, "/img/png")

    @route("/redirect/absolute")
    def redirect_absolute(self, q):
        self.redirect(301, f"{self.server.base_url}/img/png")

    @route("/redirect/to-http")
    def redirect_to_http(self, q):
        self.redirect(302, f"http://{LOOPBACK}:{self.server.server_port}/img/png")

    @route("/redirect/to-file")
    def redirect_to_file(self, q):
        self.redirect(302, "file:///etc/passwd")

    @route("/redirect/loop")
    def redirect_loop(self, q):
        self.redirect(302, "/redirect/loop")

    @route("/redirect/307")
    def redirect_307(self, q):
        self.redirect(307, "/img/png")

    @route("/redirect/308")
    def redirect_308(self, q):
        self.redirect(308, "/img/png")

    @route(prefix="/redirect/hops/")
    def redirect_hops(self, q, arg):
        n = int(arg)
        if n < 0:
            raise ValueError("hops must be >= 0")
        if n == 0:
            return self.send_bytes(200, "image/png", IMAGES.png)
        self.redirect(302, f"/redirect/hops/{n - 1}")

    @route("/redirect/to")
    def redirect_to(self, q):
        # Any status and Location, for the client's own redirect rules: ?status=302&location=URL.
        status = _int_param(q, "status", 302, 300, 399)
        location = q.get("location", [None])[0]
        if location is None:
            return self.send_bytes(status, "text/plain", b"no Location\n")
        self.redirect(status, location)

    @route("/redirect/endless-body")
    def redirect_endless_body(self, q):
        # A 302 to the PNG whose chunked body never ends, on a kept-open connection: the client must
        # stop reading it (64 KiB at most) and follow the Location.
        self.start(302, "text/plain", [("Location", "/img/png"), ("Transfer-Encoding", "chunked")])
        if self.head_only:
            return
        piece = b"x" * 16384
        while not STOP.is_set():
            self.wfile.write(b"%x\r\n%b\r\n" % (len(piece), piece))
        self.close_connection = True

    @route("/redirect/large-announced")
    def redirect_large_announced(self, q):
        # A 302 announcing an 11 MiB body in front of the 69-byte PNG: the body is not the image's.
        n = 11 * 1024 * 1024
        self.start(302, "text/plain", [("Location", "/img/tiny-png")], length=n)
        if self.head_only:
            return
        piece = b"x" * 65536
        sent = 0
        while sent < n and not STOP.is_set():
            self.wfile.write(piece[:n - sent])
            sent += len(piece)

    @route("/redirect/large-announced-closes")
    def redirect_large_announced_closes(self, q):
        # A 302 announcing 11 MiB, 100 bytes of it, then the connection closes: the client follows the
        # Location on the head alone, as URLSession does.
        self.start(302, "text/plain", [("Location", "/img/tiny-png")], length=11 * 1024 * 1024)
        self.close_connection = True
        self.write(b"x" * 100)

    @route("/redirect/large-announced-stalls")
    def redirect_large_announced_stalls(self, q):
        # The same, but the connection stays open and silent.
        self.start(302, "text/plain", [("Location", "/img/tiny-png")], length=11 * 1024 * 1024)
        self.close_connection = True
        self.write(b"x" * 100)
        self.wfile.flush()
        self.hold(_int_param(q, "seconds", 60))

    @route(prefix="/redirect/slow/")
    def redirect_slow(self, q, arg):
        # N hops, each answered after `delay` seconds, ending in /stall/headers: a timeout in a chain.
        n = int(arg)
        if n < 0:
            raise ValueError("hops must be >= 0")
        delay = float(q.get("delay", ["0.2"])[0])
        if not 0 <= delay <= 60:
            raise ValueError("delay must be 0..60")
        if not self.hold(delay):
            self.close_connection = True
            return
        if n == 0:
            return self.redirect(302, "/stall/headers?seconds=60")
        self.redirect(302, f"/redirect/slow/{n - 1}?delay={delay}")

    # -- statuses ------------------------------------------------------------------

    @route(prefix="/status/")
    def status(self, q, arg):
        code = int(arg)
        if not 200 <= code <= 599:
            raise ValueError("status must be 200..599")
        if code in (204, 304):       # no body, and (RFC 9110) no Content-Length for 204
            return self.start(code)
        self.send_html(code, self.responses.get(code, ("Status",))[0])

    # -- stalls --------------------------------------------------------------------

    @route("/stall/headers")
    def stall_headers(self, q):
        self.close_connection = True
        self.hold(_int_param(q, "seconds", 3600))

    @route("/late/headers")
    def late_headers(self, q):
        # The image, its head sent only after `seconds` (a fraction allowed): a slow origin that answers.
        if self.hold(float(q.get("seconds", ["1"])[0])):
            self.send_bytes(200, "image/png", IMAGES.png)

    @route("/stall/body")
    def stall_body(self, q):
        self.close_connection = True
        self.start(200, "image/png", length=len(IMAGES.png))
        self.write(IMAGES.png[:100])
        self.hold(_int_param(q, "seconds", 3600))

    @route("/trickle")
    def trickle(self, q):
        n = _int_param(q, "bytes", len(IMAGES.png))
        interval = float(q.get("interval", ["1"])[0])
        body = IMAGES.png_of_size(n)
        if body is None:
            raise ValueError(f"no valid PNG of {n} bytes (use {len(IMAGES.tiny_png)}, "
                             f">= {len(IMAGES.tiny_png) + PNG_TEXT_OVERHEAD})")
        self.start(200, "image/png", length=n)
        if self.head_only:
            return
        for i in range(n):
            self.wfile.write(body[i:i + 1])
            if i + 1 < n and not self.hold(interval):
                self.close_connection = True
                return

    # -- introspection ---------------------------------------------------------------

    @route("/echo/headers")
    def echo_headers(self, q):
        raw = [[k, v] for k, v in self.headers.items()]
        merged = {}
        for k, v in raw:
            key = k.lower()
            merged[key] = f"{merged[key]}, {v}" if key in merged else v
        self.send_json({"method": self.command, "path": self.path,
                        "version": self.request_version, "headers": merged, "raw": raw})



def hold_socket(sock, seconds):
    """See Handler.hold.  Short socket timeouts keep every stall responsive to
    both client disconnects and server shutdown (POLL granularity)."""
    deadline = time.monotonic() + seconds
    try:
        while not STOP.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            sock.settimeout(min(POLL, remaining))
            try:
                if not sock.recv(4096):
                    return False          # orderly EOF (or TLS close_notify)
            except (socket.timeout, ssl.SSLWantReadError):
                continue
        return False
    except OSError:                       # reset, TLS alert...: the client is gone
        return False


# ---------------------------------------------------------------------------
# Listeners.
# ---------------------------------------------------------------------------

class TLSServer(ThreadingHTTPServer):
    """ThreadingHTTPServer whose TLS handshake runs in the per-connection thread,
    so a client that stalls the handshake never blocks accept()."""
    daemon_threads = True
    block_on_close = False
    request_queue_size = 128

    def __init__(self, name, port, context):
        """`context`: an SSLContext, or a function making one on the first connection."""
        self.name, self.stats = name, Stats()
        self._context, self._context_lock = context, threading.Lock()
        super().__init__((LOOPBACK, port), Handler)
        self.base_url = f"https://{LOOPBACK}:{self.server_port}"

    def server_bind(self):
        # HTTPServer.server_bind calls getfqdn(), a reverse DNS lookup that can
        # take seconds on a badly configured machine; we know the name.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = LOOPBACK, self.socket.getsockname()[1]

    def get_request(self):
        sock, addr = self.socket.accept()
        # Headers and body go out in separate writes: without NODELAY, Nagle's algorithm holds the
        # second write for the client's delayed ACK, adding ~40 ms to every small response.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.stats.add("connections")
        return sock, addr

    def finish_request(self, request, client_address):
        request.settimeout(10)            # bound a handshake that never completes
        try:
            tls = self.context().wrap_socket(request, server_side=True)
        except (OSError, ssl.SSLError) as exc:
            self.stats.add("tls_failures")
            log(f"{self.name}: TLS handshake failed: {exc!r}")
            return
        self.stats.add("tls_handshakes")
        if tls.session_reused:
            self.stats.add("tls_resumed")
        try:
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            try:
                tls.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            tls.close()

    def context(self):
        with self._context_lock:
            if not isinstance(self._context, ssl.SSLContext):
                self._context = self._context()
            return self._context

    def handle_error(self, request, client_address):
        if VERBOSE:
            super().handle_error(request, client_address)


class StallListener:
    """Accepts TCP and never answers: the TLS handshake never completes.
    Reads and discards whatever arrives until the client goes away."""

    def __init__(self, name):
        self.name, self.stats = name, Stats()
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind((LOOPBACK, 0))
        self.socket.listen(128)
        self.socket.settimeout(POLL)
        self.server_port = self.socket.getsockname()[1]

    def serve_forever(self):
        while not STOP.is_set():
            try:
                conn, _ = self.socket.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            self.stats.add("connections")
            threading.Thread(target=self._hold, args=(conn,), daemon=True).start()

    def _hold(self, conn):
        self.stats.add("active")
        try:
            hold_socket(conn, float("inf"))
        finally:
            self.stats.add("active", -1)
            conn.close()

    def shutdown(self):
        pass                               # the accept loop watches STOP

    def server_close(self):
        self.socket.close()


ALL_LISTENERS = {}   # name -> listener (for /stats)


def closed_port():
    """A loopback port nobody listens on: connecting is refused.  (Another
    process could in theory take it later; on loopback this is unlikely.)"""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((LOOPBACK, 0))
    port = s.getsockname()[1]
    s.close()
    return port


# ---------------------------------------------------------------------------
# Certificates (openssl CLI, EC P-256: a few milliseconds each).
# ---------------------------------------------------------------------------

OPENSSL_CNF = """\
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ext_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ext_leaf_good]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ext_leaf_wrong]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:wrong.example
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ext_intermediate]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ext_leaf_cn_only]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ext_leaf_no_eku]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ext_leaf_rsa]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
"""


def openssl_req(d, cnf, name, subject, extensions, ca=None, days=7):
    """Starts `openssl req` for an EC P-256 certificate `d/<name>.pem` (key `d/<name>.key`) with the
    extensions section `extensions` of `cnf`, signed by `d/<ca>.pem` when `ca` is given (else self-signed).
    Shared with events_api.py."""
    cmd = ["openssl", "req", "-config", cnf, "-x509", "-newkey", "ec",
           "-pkeyopt", "ec_paramgen_curve:P-256", "-noenc", "-days", str(days),
           "-keyout", os.path.join(d, f"{name}.key"), "-out", os.path.join(d, f"{name}.pem"),
           "-subj", subject, "-extensions", extensions]
    if ca:
        cmd += ["-CA", os.path.join(d, f"{ca}.pem"), "-CAkey", os.path.join(d, f"{ca}.key")]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_all(procs):
    """Waits for every `openssl` started; raises with its stderr if one failed."""
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            raise RuntimeError(f"openssl failed: {err.decode(errors='replace')}")


def make_certs(d):
    """Good CA + leaf, rogue CA + leaf (same names), good-CA leaf for the wrong name, and the
    App Transport Security cases: leaves iOS refuses (host only in the CN, no EKU, ten years) and
    one it accepts (through an intermediate CA); the RSA leaf is make_rsa_leaf's.
    Our own config file keeps the system openssl.cnf out of the picture."""
    cnf = os.path.join(d, "openssl.cnf")
    with open(cnf, "w") as f:
        f.write(OPENSSL_CNF)

    def req(name, subject, extensions, ca=None, days=7):
        return openssl_req(d, cnf, name, subject, extensions, ca, days)

    dh = subprocess.Popen(["openssl", "genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt",
                           "group:ffdhe2048", "-out", os.path.join(d, "ffdhe2048.pem")],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_all([req("ca", "/CN=Carillon Test CA", "ext_ca"),
              req("rogue-ca", "/CN=Rogue Test CA", "ext_ca")])
    wait_all([req("leaf", "/CN=localhost", "ext_leaf_good", "ca"),
              req("rogue-leaf", "/CN=localhost", "ext_leaf_good", "rogue-ca"),
              req("wrong-leaf", "/CN=wrong.example", "ext_leaf_wrong", "ca"),
              req("intermediate-ca", "/CN=Carillon Test Intermediate CA", "ext_intermediate", "ca"),
              req("cn-only-leaf", "/CN=127.0.0.1", "ext_leaf_cn_only", "ca"),
              req("no-eku-leaf", "/CN=localhost", "ext_leaf_no_eku", "ca"),
              req("ten-year-leaf", "/CN=localhost", "ext_leaf_good", "ca", days=3650)])
    wait_all([req("chained-leaf", "/CN=localhost", "ext_leaf_good", "intermediate-ca"), dh])
    # The chained listener sends its leaf and the intermediate.
    with open(os.path.join(d, "chained-leaf-chain.pem"), "w") as out:
        for part in ("chained-leaf.pem", "intermediate-ca.pem"):
            with open(os.path.join(d, part)) as f:
                out.write(f.read())


RSA_LOCK = threading.Lock()


def make_rsa_leaf(d):
    """The RSA 2048 leaf (with keyEncipherment, for RSA key exchange).  Its key takes ~0.5 s of CPU,
    more on a busy machine: main() starts it in the background so that the ready line does not wait,
    and the first RSA connection waits for it instead."""
    with RSA_LOCK:
        if os.path.exists(os.path.join(d, "rsa-leaf.pem")):
            return
        cmd = ["openssl", "req", "-config", os.path.join(d, "openssl.cnf"), "-x509", "-newkey", "rsa:2048",
               "-noenc", "-days", "7", "-keyout", os.path.join(d, "rsa-leaf.key"),
               "-out", os.path.join(d, "rsa-leaf.pem.tmp"), "-subj", "/CN=localhost",
               "-extensions", "ext_leaf_rsa",
               "-CA", os.path.join(d, "ca.pem"), "-CAkey", os.path.join(d, "ca.key")]
        done = subprocess.run(cmd, capture_output=True)
        if done.returncode != 0:
            raise RuntimeError(f"openssl failed: {done.stderr.decode(errors='replace')}")
        os.replace(os.path.join(d, "rsa-leaf.pem.tmp"), os.path.join(d, "rsa-leaf.pem"))


def server_context(d, name, cert=None, minimum=ssl.TLSVersion.TLSv1_2, maximum=None, ciphers=None, dh=False):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = minimum
    if maximum:
        ctx.maximum_version = maximum
    if ciphers:
        ctx.set_ciphers(ciphers)
    if dh:
        ctx.load_dh_params(os.path.join(d, "ffdhe2048.pem"))
    ctx.load_cert_chain(os.path.join(d, f"{cert or name}.pem"), os.path.join(d, f"{name}.key"))
    return ctx


def demand_client_certificate(d, ctx):
    """`ctx` asking every client for a certificate from the test CA and refusing one without."""
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(os.path.join(d, "ca.pem"))
    return ctx


def ats_contexts(d):
    """One listener per App Transport Security case (SPEC §2): name -> a function making its context
    (on the first connection).  All certificates come from the good CA, so every refusal is an ATS
    rule, not trust."""
    tls12 = ssl.TLSVersion.TLSv1_2

    def rsa(**kwargs):
        make_rsa_leaf(d)
        return server_context(d, "rsa-leaf", **kwargs)

    return {
        # iOS refuses these.
        "ats_cn_only": lambda: server_context(d, "cn-only-leaf"),
        "ats_no_eku": lambda: server_context(d, "no-eku-leaf"),
        "ats_ten_years": lambda: server_context(d, "ten-year-leaf"),
        "ats_rsa_kex": lambda: rsa(maximum=tls12,
                                   ciphers="AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES256-SHA"),
        "ats_ffdhe": lambda: rsa(maximum=tls12, ciphers="DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384",
                                 dh=True),
        # TLS 1.0 and 1.1 only (OpenSSL 3 offers them at security level 0 alone), ECDHE suites.
        "ats_tls11": lambda: server_context(d, "leaf", minimum=ssl.TLSVersion.TLSv1, maximum=ssl.TLSVersion.TLSv1_1,
                                            ciphers="ECDHE:@SECLEVEL=0"),
        # A server that demands a client certificate (none is ever sent), over TLS 1.2 and 1.3.
        "client_cert_tls12": lambda: demand_client_certificate(d, server_context(d, "leaf", maximum=tls12)),
        "client_cert_tls13": lambda: demand_client_certificate(
            d, server_context(d, "leaf", minimum=ssl.TLSVersion.TLSv1_3)),
        # iOS accepts these.
        "ats_tls12_ecdhe": lambda: server_context(d, "leaf", maximum=tls12),
        "ats_tls13": lambda: server_context(d, "leaf", minimum=ssl.TLSVersion.TLSv1_3),
        "ats_rsa2048": lambda: rsa(maximum=tls12, ciphers="ECDHE-RSA-AES128-GCM-SHA256"),
        "ats_intermediate": lambda: server_context(d, "chained-leaf", cert="chained-leaf-chain"),
    }


# ---------------------------------------------------------------------------
# Main.
# ---------------------------------------------------------------------------

def write_ready_file(path, line):
    tmp = f"{path}.tmp.{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(line + "\n")
    os.replace(tmp, path)      # atomic: readers never see a partial file


def main(argv=None):
    global IMAGES, VERBOSE
    parser = argparse.ArgumentParser(description="carillon-nse HTTPS test server")
    parser.add_argument("--port", type=int, default=0, help="main listener port (0: any)")
    parser.add_argument("--state-dir", help="where certificates go (kept on exit); "
                                            "default: a temporary directory removed on exit")
    parser.add_argument("--ready-file", help="also write the ready JSON here (atomically)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin reaches EOF (the harness died)")
    parser.add_argument("--verbose", action="store_true", help="log requests to stderr")
    args = parser.parse_args(argv)
    VERBOSE = args.verbose

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: STOP.set())

    own_dir = args.state_dir is None
    state_dir = tempfile.mkdtemp(prefix="carillon-test-server-") if own_dir \
        else os.path.abspath(args.state_dir)
    os.makedirs(state_dir, exist_ok=True)
    listeners, wrote_ready = [], False
    try:
        make_certs(state_dir)
        IMAGES = Images()
        main_srv = TLSServer("main", args.port, server_context(state_dir, "leaf"))
        unknown = TLSServer("unknown_ca", 0, server_context(state_dir, "rogue-leaf"))
        wrong = TLSServer("wrong_host", 0, server_context(state_dir, "wrong-leaf"))
        stall = StallListener("handshake_stall")
        threading.Thread(target=make_rsa_leaf, args=(state_dir,), daemon=True).start()
        ats = [TLSServer(name, 0, ctx) for name, ctx in ats_contexts(state_dir).items()]
        listeners = [main_srv, unknown, wrong, stall, *ats]
        for srv in listeners:
            ALL_LISTENERS[srv.name] = srv
            kwargs = {} if srv is stall else {"poll_interval": POLL}
            threading.Thread(target=srv.serve_forever, kwargs=kwargs, daemon=True).start()

        if args.exit_on_stdin_eof:
            def watch_stdin():
                # os.read on the raw fd, not sys.stdin: a daemon thread blocked
                # inside the buffered reader holds its lock, and interpreter
                # shutdown then waits for that lock (we measured +1 s).
                try:
                    while os.read(0, 65536):
                        pass
                except (OSError, ValueError):
                    pass
                STOP.set()
            threading.Thread(target=watch_stdin, daemon=True).start()

        ready = json.dumps({
            "port": main_srv.server_port,
            "ca_file": os.path.join(state_dir, "ca.pem"),
            "base_url": main_srv.base_url,
            "unknown_ca_port": unknown.server_port,
            "wrong_host_port": wrong.server_port,
            "handshake_stall_port": stall.server_port,
            "closed_port": closed_port(),
            "ats_ports": {srv.name: srv.server_port for srv in ats},
            "pid": os.getpid(),
        })
        if args.ready_file:
            write_ready_file(args.ready_file, ready)
            wrote_ready = True
        try:
            print(ready, flush=True)
        except OSError:
            pass                              # nobody reads stdout: fine
        while not STOP.wait(POLL):
            pass
    finally:
        STOP.set()
        for srv in listeners:
            srv.shutdown()                    # returns within POLL
            srv.server_close()
        if wrote_ready:
            try:
                os.unlink(args.ready_file)
            except OSError:
                pass
        if own_dir:
            shutil.rmtree(state_dir, ignore_errors=True)
        log("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
