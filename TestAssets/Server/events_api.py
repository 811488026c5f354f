#!/usr/bin/env python3
"""A local stand-in for Carillon's public events API (SPEC §5), for tests and the benchmark.

Standard library only (plus the `openssl` command line for certificates, as server.py makes them).
Binds 127.0.0.1 only; makes its own CA and leaf certificate at start-up.

    python3 events_api.py [--port 0] [--key-file FILE] [--ready-file FILE] [--exit-on-stdin-eof]
                          [--now ISO8601]

The mobile key it accepts is the first line of --key-file (default: "test-mobile-key"). When ready it
prints one line of JSON to stdout (and writes it atomically to --ready-file):
    {"port":…,"ca_file":…,"base_url":"https://127.0.0.1:…","pid":…}

Routes (HTTP/1.1 with keep-alive, so one connection serves every request):
    POST /v1/events     the API: Authorization: Bearer <key> (401 without, 403 with another key),
                        Content-Type: application/json (415), a body of {"events":[{"type","delivery_id",
                        "at"}…]} (400 naming what is wrong), at most 100 events (413). Answers
                        {"received": N}. Records the first report per (type, delivery id); a repeat is a
                        no-op. The clock rule: an `at` in the future or more than 30 days old is stored as
                        the moment the event was received instead.
    GET  /v1/recorded   what was recorded, in order: {"events":[{"type","delivery_id","at" (as stored),
                        "sent_at" (as sent), "replaced" (bool: the clock rule applied), "reported_at",
                        "reports" (how many times it was sent)}]}. No auth: it is the test's view.
    GET  /_stats        {"posts": N, "connections": N, "faults_left": N, "server_ms": total handling time}
    POST /_faults       a JSON list, consumed one per POST /v1/events, in order; each one of
                        {"status": 500} (also 503, 429, 401, 413, 422…, with optional "retry_after": "1"
                        or an HTTP date, and "body"), {"reset": true} (read the body, record nothing,
                        reset the connection), {"reset_after_record": true} (record, then reset: the client
                        never hears the answer), {"delay": SECONDS} (wait, then answer normally), {"stall": SECONDS} (read the body, say nothing for that
                        long, then close), {"received": N} (record, but answer {"received": N}), or
                        {"ok": true} (behave normally), or {"status": 400, "raw_body": TEXT} (TEXT as the
                        body, exactly, as text/plain). Replaces the list; answers {"faults": N}.
    POST /_clear        forgets what was recorded and every fault.
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
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The certificates are made the way the image server makes its own (server.py, beside this file).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server  # noqa: E402

LOOPBACK = "127.0.0.1"
MAX_EVENTS = 100
MAX_AGE_MS = 30 * 86_400_000
STOP = threading.Event()
AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def iso(ms):
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def parse_at(text):
    """Milliseconds since the epoch, or None. fromisoformat is C; strptime, ten times slower, made this
    server the larger part of the benchmark's upload."""
    if not isinstance(text, str) or not AT.match(text):
        return None
    try:
        d = datetime.fromisoformat(text[:23] + "+00:00")
    except ValueError:
        return None
    delta = d - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000


class State:
    def __init__(self, key, now_ms=None):
        self.key = key
        self.fixed_now = now_ms
        self.lock = threading.Lock()
        self.clear()
        self.connections = 0
        self.server_seconds = 0.0

    def clear(self):
        self.recorded = {}          # (type, id) -> record, insertion-ordered
        self.faults = []
        self.posts = 0

    def now_ms(self):
        return self.fixed_now if self.fixed_now is not None else int(time.time() * 1000)

    def record(self, events):
        now = self.now_ms()
        with self.lock:
            for e in events:
                k = (e["type"], e["delivery_id"])
                r = self.recorded.get(k)
                if r:
                    r["reports"] += 1
                    continue
                sent = e["_ms"]
                replaced = sent > now or now - sent > MAX_AGE_MS
                self.recorded[k] = {"type": e["type"], "delivery_id": e["delivery_id"],
                                    "at": iso(now) if replaced else e["at"], "sent_at": e["at"],
                                    "replaced": replaced, "reported_at": iso(now), "reports": 1}


def check_body(raw):
    """None when `raw` is a valid request body, else what is wrong."""
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
        ms = parse_at(e["at"])
        if ms is None:
            return None, f"events[{i}].at is not YYYY-MM-DDTHH:MM:SS.fffZ"
        e["_ms"] = ms
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

    def do_GET(self):
        st = self.server.state
        if self.path == "/v1/recorded":
            with st.lock:
                self.send(200, {"events": list(st.recorded.values())})
        elif self.path == "/_stats":
            with st.lock:
                self.send(200, {"posts": st.posts, "connections": st.connections, "faults_left": len(st.faults),
                                "server_ms": round(st.server_seconds * 1000, 3)})
        else:
            self.send(404, {"error": "no such route"})

    def do_POST(self):
        st = self.server.state
        started = time.perf_counter()
        try:
            self.post(st)
        finally:
            with st.lock:
                st.server_seconds += time.perf_counter() - started

    def post(self, st):
        raw = self.read_body()
        if self.path == "/_faults":
            faults = json.loads(raw or b"[]")
            with st.lock:
                st.faults = list(faults)
            self.send(200, {"faults": len(faults)})
            return
        if self.path == "/_clear":
            with st.lock:
                st.clear()
            self.send(200, {"cleared": True})
            return
        if self.path != "/v1/events":
            self.send(404, {"error": "no such route"})
            return
        with st.lock:
            st.posts += 1
            fault = st.faults.pop(0) if st.faults else None
        if fault:
            if fault.get("delay"):
                STOP.wait(float(fault["delay"]))
            if fault.get("stall"):
                STOP.wait(float(fault["stall"]))
                self.close_connection = True
                return
            if fault.get("reset"):
                self.reset()
            if "raw_body" in fault:          # the answer's text exactly as given (a hostile answer)
                data = fault["raw_body"].encode()
                self.send_response(int(fault.get("status", 400)))
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            if "status" in fault:
                headers = [("Retry-After", str(fault["retry_after"]))] if "retry_after" in fault else []
                self.send(int(fault["status"]), {"error": fault.get("body", "scripted fault")}, headers)
                return
        auth = self.headers.get("Authorization") or ""
        if not auth.startswith("Bearer "):
            self.send(401, {"error": "missing Authorization: Bearer"})
            return
        if auth[len("Bearer "):] != st.key:
            self.send(403, {"error": "mobile key not recognised"})
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
        st.record(events)
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
    parser.add_argument("--now", help="a fixed clock for the clock rule (ISO 8601 with ms and Z)")
    args = parser.parse_args(argv)
    key = "test-mobile-key"
    if args.key_file:
        with open(args.key_file) as f:
            key = f.readline().rstrip("\r\n")
    now_ms = parse_at(args.now) if args.now else None

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: STOP.set())
    state_dir = tempfile.mkdtemp(prefix="carillon-events-api-")
    srv = None
    try:
        srv = TLSServer(args.port, make_certs(state_dir), State(key, now_ms))
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
