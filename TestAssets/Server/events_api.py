#!/usr/bin/env python3
"""A local stand-in for Carillon's public events API (SPEC §5 and §10), for tests and the benchmark.

Standard library only (plus the `openssl` command line for certificates, as server.py makes them).
Binds 127.0.0.1 only; makes its own CA and leaf certificate at start-up. README.md beside this file
documents every route, fault and the fixture; events_model.py holds what it knows and records.

    python3 events_api.py [--port 0] [--key-file FILE] [--fixture FILE] [--now ISO8601]
                          [--ready-file FILE] [--exit-on-stdin-eof]

The first line of --key-file (default: "test-mobile-key") is a mobile key that posts for every app; the
fixture adds messages, deliveries and carillon_mk_/carillon_sk_ keys. When ready it prints one line of
JSON to stdout (and writes it atomically to --ready-file):
    {"port":…,"ca_file":…,"base_url":"https://127.0.0.1:…","pid":…}

Routes (HTTP/1.1 with keep-alive, so one connection serves every request):
    POST /v1/events            a mobile key posts {"events":[…]}; answers {"received": N}
    GET  /v1/messages/{id}     a secret key reads the message, its platforms and 50 deliveries
    GET  /v1/messages/{id}/opens   a secret key with deliveries:read reads the hourly opens
    GET  /v1/recorded          what was recorded (the test's view, no auth)
    GET  /_stats               counters, the drops and the clock
    POST /_faults, /_faults/get    script the next POST /v1/events, or GET /v1/messages/…, answers
    POST /_clock               {"now": ISO8601 or null}: set the clock (null: the real clock)
    POST /_clear               forget what was recorded and every fault
"""

import argparse
import json
import os
import re
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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The certificates are made the way the image server makes its own (server.py, beside this file).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server  # noqa: E402
from events_model import AT, UUID, FixtureError, State, iso, parse_at  # noqa: E402

LOOPBACK = "127.0.0.1"
MAX_EVENTS = 100
STOP = threading.Event()
MESSAGE = re.compile(r"^/v1/messages/([^/?]+)(/opens)?/?(?:\?.*)?$")


def check_body(raw):
    """(events, None) when `raw` is a valid request body, else (None, what is wrong). An `at` of the
    right form that names no real instant (February 30th, hour 24) is kept with `_ms` None: the clock
    rule stores the moment of receipt for it."""
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return None, f"body is not JSON: {exc}"
    if not isinstance(body, dict) or set(body) != {"events"} or not isinstance(body["events"], list):
        return None, 'body must be {"events":[...]}'
    for i, e in enumerate(body["events"]):
        if not isinstance(e, dict) or set(e) != {"type", "delivery_id", "at"}:
            return None, f"events[{i}] must have exactly type, delivery_id, at"
        if e["type"] not in ("received", "opened"):
            return None, f"events[{i}].type must be received or opened"
        if not isinstance(e["delivery_id"], str) or not UUID.match(e["delivery_id"]):
            return None, f"events[{i}].delivery_id is not a lower-case UUID"
        if not isinstance(e["at"], str) or not AT.match(e["at"]):
            return None, f"events[{i}].at is not YYYY-MM-DDTHH:MM:SS.fffZ"
        e["_ms"] = parse_at(e["at"])
    return body["events"], None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 60

    def version_string(self):
        return "carillon-events-api"

    def log_message(self, fmt, *args):
        pass

    def handle(self):
        try:
            super().handle()
        except (OSError, ssl.SSLError):
            pass

    def send(self, status, obj, headers=()):
        data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def reset(self):
        # SO_LINGER 0: close sends a TCP RST, not a FIN.
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.close_connection = True
        try:
            socket.socket.close(self.connection)
        except OSError:
            pass
        raise ConnectionResetError("scripted reset")

    def send_huge(self, size, with_length):
        """A 200 answer of `size` bytes that starts like a message (`{"id":"xxxx…`) and never ends as
        JSON, written 64 KiB at a time; without a length, the end of the connection ends it."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if with_length:
            self.send_header("Content-Length", str(size))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        head = b'{"id":"'
        self.wfile.write(head)
        chunk = b"x" * 65536
        left = size - len(head)
        while left > 0 and not STOP.is_set():
            self.wfile.write(chunk[:left])
            left -= min(left, len(chunk))

    def play(self, fault, default_status):
        """Plays a scripted fault: True when it answered (or closed) instead of the API."""
        if fault.get("delay"):
            STOP.wait(float(fault["delay"]))
        if fault.get("stall"):
            STOP.wait(float(fault["stall"]))
            self.close_connection = True
            return True
        if fault.get("reset"):
            self.reset()
        headers = [("Retry-After", str(fault["retry_after"]))] if "retry_after" in fault else []
        if "raw_body" in fault:          # the answer's text exactly as given (a hostile answer)
            data = fault["raw_body"].encode()
            self.send_response(int(fault.get("status", default_status)))
            self.send_header("Content-Type", fault.get("content_type", "text/plain"))
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            return True
        if "json" in fault:              # any JSON, e.g. a wrongly shaped answer
            self.send(int(fault.get("status", 200)), fault["json"], headers)
            return True
        if "huge" in fault:
            self.send_huge(int(fault["huge"]), not fault.get("no_length"))
            return True
        if "status" in fault:
            self.send(int(fault["status"]), {"error": fault.get("body", "scripted fault")}, headers)
            return True
        return False

    def bearer(self):
        auth = self.headers.get("Authorization") or ""
        return auth[len("Bearer "):] if auth.startswith("Bearer ") else None

    def do_GET(self):
        st = self.server.state
        path = self.path.split("?", 1)[0]
        if path == "/v1/recorded":
            with st.lock:
                self.send(200, {"events": st.recorded_view()})
        elif path == "/_stats":
            with st.lock:
                self.send(200, {"posts": st.posts, "gets": st.gets, "connections": st.connections,
                                "faults_left": len(st.faults), "get_faults_left": len(st.get_faults),
                                "dropped": dict(st.dropped), "now": iso(st.now_ms()),
                                "server_ms": round(st.server_seconds * 1000, 3)})
        elif (match := MESSAGE.match(path)):
            self.read_message(st, match.group(1), match.group(2) is not None)
        else:
            self.send(404, {"error": "no such route"})

    def read_message(self, st, message_id, opens):
        with st.lock:
            st.gets += 1
            fault = st.get_faults.pop(0) if st.get_faults else None
        if fault and self.play(fault, 200):
            return
        text = self.bearer()
        if text is None:
            self.send(401, {"error": "missing Authorization: Bearer <secret key>"})
            return
        key = st.keys.get(text)
        if key is None:
            self.send(401, {"error": "key not recognised"})
            return
        if not key.secret:
            self.send(403, {"error": "a mobile key cannot read messages: use a secret key (carillon_sk_...)"})
            return
        if opens and "deliveries:read" not in key.scopes:
            self.send(403, {"error": "the secret key lacks the deliveries:read scope"})
            return
        message = st.messages.get(message_id)
        if message is None or message["app"] != key.app:
            self.send(404, {"error": f"no message {message_id}"})
            return
        self.send(200, st.opens_view(message) if opens else st.message_view(message))

    def do_POST(self):
        st = self.server.state
        started = time.perf_counter()
        try:
            self.post(st)
        finally:
            with st.lock:
                st.server_seconds += time.perf_counter() - started

    def admin(self, st, raw):
        """The test's own routes; True when `self.path` was one."""
        if self.path in ("/_faults", "/_faults/get"):
            faults = json.loads(raw or b"[]")
            with st.lock:
                if self.path == "/_faults":
                    st.faults = list(faults)
                else:
                    st.get_faults = list(faults)
            self.send(200, {"faults": len(faults)})
        elif self.path == "/_clear":
            with st.lock:
                st.clear()
            self.send(200, {"cleared": True})
        elif self.path == "/_clock":
            body = json.loads(raw or b"{}")
            now = body.get("now")
            if now is not None and parse_at(now) is None:
                self.send(400, {"error": "now must be YYYY-MM-DDTHH:MM:SS.fffZ or null"})
                return True
            with st.lock:
                st.fixed_now = parse_at(now) if now is not None else None
            self.send(200, {"now": iso(st.now_ms())})
        else:
            return False
        return True

    def post(self, st):
        raw = self.read_body()
        if self.admin(st, raw):
            return
        if self.path != "/v1/events":
            self.send(404, {"error": "no such route"})
            return
        with st.lock:
            st.posts += 1
            fault = st.faults.pop(0) if st.faults else None
        if fault and self.play(fault, 400):
            return
        text = self.bearer()
        if text is None:
            self.send(401, {"error": "missing Authorization: Bearer"})
            return
        key = st.keys.get(text)
        if key is None:
            self.send(403, {"error": "mobile key not recognised"})
            return
        if not key.mobile:
            self.send(403, {"error": "a secret key cannot post events: use a mobile key (carillon_mk_...)"})
            return
        if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
            self.send(415, {"error": "Content-Type must be application/json"})
            return
        events, problem = check_body(raw)
        if problem:
            self.send(400, {"error": problem})
            return
        if len(events) > MAX_EVENTS:
            self.send(413, {"error": f"at most {MAX_EVENTS} events per request, got {len(events)}"})
            return
        st.record(events, key)
        if fault and fault.get("reset_after_record"):
            self.reset()
        received = fault["received"] if fault and "received" in fault else len(events)
        self.send(200, {"received": received})


class TLSServer(ThreadingHTTPServer):
    """The handshake runs in the connection's thread (as in server.py), so a slow client never blocks
    accept()."""
    daemon_threads = True
    block_on_close = False
    request_queue_size = 64

    def __init__(self, port, context, state):
        self.state, self._ssl = state, context
        super().__init__((LOOPBACK, port), Handler)

    def server_bind(self):
        socketserver.TCPServer.server_bind(self)      # no getfqdn(): we know the name
        self.server_name, self.server_port = LOOPBACK, self.socket.getsockname()[1]

    def get_request(self):
        sock, addr = self.socket.accept()
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.state.lock:
            self.state.connections += 1
        return sock, addr

    def finish_request(self, request, client_address):
        request.settimeout(10)
        try:
            tls = self._ssl.wrap_socket(request, server_side=True)
        except (OSError, ssl.SSLError):
            return
        tls.settimeout(60)
        try:
            self.RequestHandlerClass(tls, client_address, self)
        finally:
            try:
                tls.close()
            except OSError:
                pass

    def handle_error(self, request, client_address):
        pass


def make_certs(d):
    """A CA and a leaf for 127.0.0.1 that App Transport Security accepts (EC P-256, SAN, serverAuth,
    7 days): server.py's good pair, made by its own openssl configuration and helper."""
    cnf = os.path.join(d, "openssl.cnf")
    with open(cnf, "w") as f:
        f.write(server.OPENSSL_CNF)
    server.wait_all([server.openssl_req(d, cnf, "ca", "/CN=Carillon Events API Test CA", "ext_ca")])
    server.wait_all([server.openssl_req(d, cnf, "leaf", "/CN=127.0.0.1", "ext_leaf_good", "ca")])
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.load_cert_chain(os.path.join(d, "leaf.pem"), os.path.join(d, "leaf.key"))
    return ctx


def main(argv=None):
    parser = argparse.ArgumentParser(description="carillon-nse events API stand-in")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--key-file", help="first line: the accepted mobile key (default test-mobile-key)")
    parser.add_argument("--ready-file")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    parser.add_argument("--now", help="a fixed clock (ISO 8601 with ms and Z); POST /_clock changes it")
    parser.add_argument("--fixture", help="messages, deliveries and keys (see events_model.py and README.md)")
    args = parser.parse_args(argv)
    key = "test-mobile-key"
    if args.key_file:
        with open(args.key_file) as f:
            key = f.readline().rstrip("\r\n")
    now_ms = parse_at(args.now) if args.now else None
    if args.now and now_ms is None:
        parser.error(f"--now {args.now!r} is not YYYY-MM-DDTHH:MM:SS.fffZ")
    try:
        state = State(key, now_ms, args.fixture)
    except FixtureError as exc:
        print(f"events_api.py: {exc}", file=sys.stderr)
        return 1

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: STOP.set())
    state_dir = tempfile.mkdtemp(prefix="carillon-events-api-")
    srv = None
    try:
        srv = TLSServer(args.port, make_certs(state_dir), state)
        threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        if args.exit_on_stdin_eof:
            def watch_stdin():
                try:
                    while os.read(0, 65536):
                        pass
                except (OSError, ValueError):
                    pass
                STOP.set()
            threading.Thread(target=watch_stdin, daemon=True).start()
        ready = json.dumps({"port": srv.server_port, "ca_file": os.path.join(state_dir, "ca.pem"),
                            "base_url": f"https://{LOOPBACK}:{srv.server_port}", "pid": os.getpid()})
        if args.ready_file:
            tmp = f"{args.ready_file}.tmp.{os.getpid()}"
            with open(tmp, "w") as f:
                f.write(ready + "\n")
            os.replace(tmp, args.ready_file)
        try:
            print(ready, flush=True)
        except OSError:
            pass
        while not STOP.wait(0.05):
            pass
    finally:
        STOP.set()
        if srv:
            srv.shutdown()
            srv.server_close()
        if args.ready_file:
            try:
                os.unlink(args.ready_file)
            except OSError:
                pass
        shutil.rmtree(state_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
