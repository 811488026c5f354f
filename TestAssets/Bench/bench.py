#!/usr/bin/env python3
"""carillon-nse benchmarks against curl, and the iOS extension's memory budget (SPEC §7).

One command: builds release, starts the local HTTPS test server (TestAssets/Server/server.py), runs
every measurement with the two sides alternating, and prints one table of medians with min–max.
Standard library only. See README.md beside this file for what each row measures.

    TestAssets/Bench/run.sh [--quick] [--no-build] [--keep]

Exit status: 0 when every measurement ran and every run gave the expected outcome, whatever the
timings (targets are reported as PASS/MISS, never enforced); 1 when something broke (a build, the
server, a wrong outcome); 64 on bad usage. Nothing is sent anywhere but 127.0.0.1.
"""

import argparse
import json
import os
import re
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from nginx import Nginx
import bench_campaign
import bench_codings
import bench_merge
import bench_doctor
import bench_replay
import memory_map

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SERVER = os.path.join(ROOT, "TestAssets", "Server", "server.py")
IMAGES = os.path.join(ROOT, "TestAssets", "Images")
LOOPBACK = "127.0.0.1"
CAP = 10 * 1024 * 1024
GNU_TIME = "/usr/bin/time"

ERRORS = []          # things that broke: the exit status is 1 when any
NOTES = []           # printed under the table


def say(msg):
    print(msg, file=sys.stderr, flush=True)


def broke(msg):
    ERRORS.append(msg)
    say(f"ERROR: {msg}")


# ---------------------------------------------------------------------------
# Environment: loopback only, no proxies, no ~/.curlrc.
# ---------------------------------------------------------------------------

def clean_env():
    env = {k: v for k, v in os.environ.items()
           if k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "ftp_proxy", "no_proxy")}
    env["no_proxy"] = env["NO_PROXY"] = "*"      # belt and braces: never a proxy, only 127.0.0.1
    return env


ENV = clean_env()


def curl_cmd(ca, url, out):
    """The SPEC §7 reference command (`-q`: ignore any .curlrc; `-s`: no progress meter)."""
    assert url.startswith(f"https://{LOOPBACK}:"), url
    return ["curl", "-q", "-s", "--cacert", ca, "--proto", "=https", "--proto-redir", "=https",
            "--max-redirs", "5", "--max-time", "20", "--max-filesize", str(CAP), "-o", out, url]


def run(cmd, **kw):
    return subprocess.run(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def timed(cmd):
    """Wall time in ms of a whole child process, and its result."""
    start = time.perf_counter_ns()
    result = run(cmd)
    return (time.perf_counter_ns() - start) / 1e6, result


def timed_cpu(cmd):
    """Wall time in ms, the result, and the child's user+sys CPU ms (children run one at a time)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    ms, result = timed(cmd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_ms = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
    return ms, result, cpu_ms


def load():
    try:
        return run(["uptime"]).stdout.strip()
    except OSError:
        with open("/proc/loadavg") as f:
            return "loadavg " + f.read().strip()


# ---------------------------------------------------------------------------
# Statistics and the table
# ---------------------------------------------------------------------------

def stats(values):
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def fmt(s, unit, digits=1):
    if s is None:
        return "n/a"
    f = f"{{:.{digits}f}}"
    return f"{f.format(s['median'])} {unit} [{f.format(s['min'])}–{f.format(s['max'])}] n={s['n']}"


ROWS = []   # (label, carillon, reference, target, verdict)


def row(label, ours, reference="", target="", verdict=""):
    ROWS.append((label, ours, reference, target, verdict))


def verdict(ok):
    if ok is None:
        return "n/a"
    return "PASS" if ok else "MISS"


def print_table():
    headers = ("measurement", "carillon-nse", "reference", "target (SPEC §7)", "")
    widths = [max(len(str(r[i])) for r in ROWS + [headers]) for i in range(5)]
    line = "  ".join("-" * w for w in widths)
    print(line)
    print("  ".join(str(h).ljust(w) for h, w in zip(headers, widths)))
    print(line)
    for r in ROWS:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    print(line)


# ---------------------------------------------------------------------------
# Setup: tools, build, server
# ---------------------------------------------------------------------------

def ensure_gnu_time():
    if os.path.exists(GNU_TIME):
        return True
    say(f"{GNU_TIME} (GNU time) is missing: installing the Debian package 'time' with apt-get "
        "(needed for peak RSS)")
    NOTES.append("GNU time was missing and was installed with `apt-get install -y time`.")
    for cmd in (["apt-get", "install", "-y", "time"], ["apt-get", "update"], ["apt-get", "install", "-y", "time"]):
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if os.path.exists(GNU_TIME):
            return True
    broke("could not install GNU time (apt-get install time): no peak RSS rows")
    return False


def build(scratch, package_path, what, extra=()):
    say(f"building {what} (release, --scratch-path {scratch}) ...")
    cmd = ["swift", "build", "-c", "release", "--scratch-path", scratch, "--package-path", package_path] + list(extra)
    for attempt in range(3):
        result = run(cmd)
        if result.returncode == 0:
            return True
        if attempt == 0:
            # SwiftPM keeps the plan of a path dependency: a source file added to the main package since
            # the last build is then missing. Dropping the plan (not the objects) makes it re-scan.
            for stale in ("build.db", "release.yaml", os.path.join("release", "description.json")):
                try:
                    os.unlink(os.path.join(scratch, stale))
                except OSError:
                    pass
            result = run(cmd)
            if result.returncode == 0:
                return True
        # Other engineers edit the same checkout: a file changing under the build is retried.
        say(f"build of {what} failed (attempt {attempt + 1}):\n" + (result.stdout + result.stderr)[-3000:])
        if attempt < 2:
            time.sleep(30)
    broke(f"release build of {what} failed")
    return False


class Server:
    def __init__(self, work):
        self.log = open(os.path.join(work, "server.log"), "w")
        self.proc = subprocess.Popen(
            [sys.executable, SERVER, "--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.log, env=ENV, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.stop()
            raise RuntimeError("the test server printed no ready line (see server.log)")
        self.info = json.loads(line)
        if not self.info["base_url"].startswith(f"https://{LOOPBACK}:"):
            self.stop()
            raise RuntimeError(f"the test server is not on {LOOPBACK}: {self.info['base_url']}")
        self.ca = self.info["ca_file"]

    def url(self, path, port=None):
        return f"https://{LOOPBACK}:{port or self.info['port']}{path}"

    def stop(self):
        try:
            self.proc.stdin.close()                 # --exit-on-stdin-eof
            self.proc.wait(timeout=10)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            self.proc.terminate()                   # our own child, by its handle
            self.proc.wait(timeout=10)
        self.log.close()


# ---------------------------------------------------------------------------
# Payloads
# ---------------------------------------------------------------------------

ID_COUNTER = [0]


def next_id():
    ID_COUNTER[0] += 1
    return f"01937b21-0000-7000-8000-{ID_COUNTER[0]:012x}"


def write_payload(path, url):
    with open(path, "w") as f:
        json.dump({"aps": {"alert": "bench", "mutable-content": 1},
                   "carillon": {"delivery_id": next_id(), "image": url}}, f)
    return path


def results(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def check_process(label, result, expect_reason, expect_bytes=None, count=1):
    """Whether a `process` run gave `count` lines with the expected outcome; reports it if not."""
    try:
        lines = results(result.stdout)
    except ValueError:
        broke(f"{label}: output is not JSON lines: {result.stdout[:300]!r}")
        return None
    if result.returncode != 0 or len(lines) != count:
        broke(f"{label}: exit {result.returncode}, {len(lines)} lines; stderr: {result.stderr[-300:]}")
        return None
    for line in lines:
        if line.get("reason") != expect_reason:
            broke(f"{label}: reason {line.get('reason')} ({line.get('detail')}), expected {expect_reason}")
            return None
        if expect_bytes is not None and [a["bytes"] for a in line["attachments"]] != [expect_bytes]:
            broke(f"{label}: attachments {line['attachments']}, expected one of {expect_bytes} bytes")
            return None
    return lines


def clear(directory):
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory, exist_ok=True)


def empty(directory):
    """Removes the files in a directory but keeps it: the steady state of a container or attachments
    directory between notifications (a fresh directory would add a directory fsync to every run)."""
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            os.unlink(path)


def settle():
    """Flushes the file system between timed runs, untimed. Deleting a 10 MiB file leaves freed
    blocks (and, with the `discard` mount option, TRIMs) for the next journal commit; the next
    receipt's fsync would pay for them, charging one side for the other's clean-up."""
    os.sync()


def drain_receipts(container):
    """What the app's drain leaves: the receipts directory, without receipts."""
    receipts = os.path.join(container, "CarillonReceipts")
    if os.path.isdir(receipts):
        empty(receipts)


def peak_rss_kib(cmd, out_file):
    """Runs cmd under GNU time -v; returns (Maximum resident set size in KiB, result)."""
    result = run([GNU_TIME, "-v", "-o", out_file] + cmd)
    with open(out_file) as f:
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", f.read())
    return (int(m.group(1)) if m else None), result


# ---------------------------------------------------------------------------
# The measurements
# ---------------------------------------------------------------------------

def ten_mib_cases(srv, ngx):
    """The 10 MiB downloads of rows 1 (SPEC §7: against the test server, and against nginx as a fast
    real server): (row, title, URL, with a --container). Without a container the run is a like-for-like
    download to a file; the PNG's CRCs cover every byte, so the verifier reads all of it."""
    cases = [("1", "10 MiB JPEG, with --container (receipt: 2 fsyncs)", srv.url("/size/cap"), True),
             ("1w", "10 MiB JPEG, without --container", srv.url("/size/cap"), False),
             ("1p", "10 MiB PNG, without --container", srv.url(f"/size/png?bytes={CAP}"), False)]
    if ngx:
        cases += [("1n", "nginx: 10 MiB JPEG, without --container", ngx.url("/cap.jpg"), False),
                  ("1np", "nginx: 10 MiB PNG, without --container", ngx.url("/big.png"), False)]
    return cases


def bench_ten_mib(variants, cases, ca, work, reps):
    """Rows 1, 1w, 1p, 1n, 1np: whole-process wall and CPU time (user+sys, getrusage) of 10 MiB
    downloads, `carillon-nse process` against the reference curl, the sides alternating run by run.

    `variants` is [(label, binary)]: the normal build, and with --static-what-if the same sources built
    with --static-swift-stdlib (its rows are marked "s")."""
    att, container, out = (os.path.join(work, d) for d in ("att-big", "container-big", "curl-big"))
    for d in (att, container, out):
        clear(d)
    payload = os.path.join(work, "big.json")
    for number, title, url, with_container in cases:
        wall = {label: [] for label, _ in variants + [("curl", None)]}
        cpu = {label: [] for label in wall}
        inside = {label: [] for label, _ in variants}

        def one_nse(label, nse):
            write_payload(payload, url)      # a new delivery id each run: the receipt is really stored
            receipts = ["--container", container] if with_container else []
            ms, r, cpu_ms = timed_cpu([nse, "process"] + receipts + ["--attachments", att, "--ca-file", ca, payload])
            lines = check_process(f"row {number} process", r, "attached", CAP)
            empty(att)
            drain_receipts(container)
            settle()
            if lines:
                inside[label].append(lines[0]["elapsed_ms"])
                return ms, cpu_ms
            return None

        def one_curl():
            target = os.path.join(out, "image")
            ms, r, cpu_ms = timed_cpu(curl_cmd(ca, url, target))
            ok = r.returncode == 0 and os.path.getsize(target) == CAP
            if not ok:
                broke(f"row {number} curl: exit {r.returncode} {r.stderr[-200:]}")
            os.unlink(target) if os.path.exists(target) else None
            settle()
            return (ms, cpu_ms) if ok else None

        runners = [(label, (lambda l=label, b=binary: one_nse(l, b))) for label, binary in variants]
        runners.append(("curl", one_curl))
        for _, fn in runners:                # warm-up (page cache, the server's image), not counted
            fn()
        for label in inside:
            inside[label].clear()
        for i in range(reps):
            k = i % len(runners)
            for label, fn in runners[k:] + runners[:k]:
                got = fn()
                if got is not None:
                    wall[label].append(got[0])
                    cpu[label].append(got[1])
        c_wall, c_cpu = stats(wall["curl"]), stats(cpu["curl"])
        for n, (label, _) in enumerate(variants):
            a_wall, a_cpu, e = stats(wall[label]), stats(cpu[label]), stats(inside[label])
            name = f"{number}. {title}" if n == 0 else f"{number}s. same, {label}"
            ok_wall = None if not (a_wall and c_wall) else a_wall["median"] <= c_wall["median"]
            ok_cpu = None if not (a_cpu and c_cpu) else a_cpu["median"] <= c_cpu["median"]
            what_if = " (what-if)" if n else ""
            row(name + " — wall", fmt(a_wall, "ms") + ratio_text(a_wall, c_wall), "curl: " + fmt(c_wall, "ms"),
                "<= 1.00x curl", verdict(ok_wall) + what_if)
            outside = f"; elapsed_ms {e['median']:.1f}, so {a_wall['median'] - e['median']:.1f} ms outside the pipeline" \
                if a_wall and e else ""
            row("   CPU user+sys", fmt(a_cpu, "ms") + ratio_text(a_cpu, c_cpu) + outside, "curl: " + fmt(c_cpu, "ms"),
                "<= 1.00x curl", verdict(ok_cpu) + what_if)


def ratio_text(ours, theirs):
    return f" ({ours['median'] / theirs['median']:.2f}x curl)" if ours and theirs and theirs["median"] else ""


def start_nginx(srv, work, install):
    """nginx serving the test server's two 10 MiB images (fetched from it with curl, so the bytes are the
    same) with its certificate; None, with a note, when nginx cannot run here."""
    files = {}
    for name, path in (("/cap.jpg", "/size/cap"), ("/big.png", f"/size/png?bytes={CAP}")):
        local = os.path.join(work, "nginx-source" + name.replace("/", "-"))
        r = run(curl_cmd(srv.ca, srv.url(path), local))
        if r.returncode != 0 or os.path.getsize(local) != CAP:
            broke(f"fetching {path} from the test server for nginx failed: {r.stderr[-200:]}")
            return None
        files[name] = local
    ngx, why = Nginx.start(work, srv.ca, files, install, say)
    if ngx is None:
        NOTES.append(f"rows 1n and 1np were not run: {why}.")
        return None
    version = run(["nginx", "-v"]).stderr.strip() or "nginx"
    NOTES.append(f"rows 1n/1np: {version} on {ngx.url('/')} (one worker, sendfile, TLS with the test server's "
                 "certificate), started and stopped by the benchmark.")
    return ngx


def bench_transfer_engine(tool, srv, work, reps):
    """Row 1t: the same 10 MiB without process start-up on either side: carillon's NotificationService
    in a warm process (new DownloaderPool, so a new connection and handshake; no receipt) vs curl's own
    %{time_total}. Separates the transfer engine from exec/dynamic loading/exit."""
    url = srv.url("/size/cap")
    ours, theirs = [], []
    target = os.path.join(work, "curl-engine")
    for i in range(reps):
        for kind in (("nse", "curl") if i % 2 == 0 else ("curl", "nse")):
            if kind == "nse":
                r = run([tool, "pipeline", "--url", url, "--ca-file", srv.ca, "--reps", "1",
                         "--work", os.path.join(work, "engine")])
                if r.returncode != 0:
                    broke(f"in-process pipeline: {r.stderr[-300:]}")
                    return
                ours.append(json.loads(r.stdout)["elapsed"]["median_us"] / 1000)
            else:
                r = run(["curl", "-q", "-s", "-w", "%{time_total}"] + curl_cmd(srv.ca, url, target)[3:])
                if r.returncode != 0:
                    broke(f"curl -w: {r.stderr[-200:]}")
                    return
                theirs.append(float(r.stdout) * 1000)
                os.unlink(target)
            settle()
    a, b = stats(ours), stats(theirs)
    ratio = ratio_text(a, b)
    row("1t. 10 MiB, no process start-up (in-process)", "service elapsed: " + fmt(a, "ms") + ratio,
        "curl %{time_total}: " + fmt(b, "ms"), "(diagnostic)", "")


def bench_overhead(tool, work, iterations, ten_k):
    """Row 2: in-process pipeline overhead per payload, beyond the transfer."""
    images = [os.path.join(IMAGES, n) for n in ("sample.jpg", "sample.png", "static.gif", "animated.gif")]
    if ten_k:
        images.append(ten_k)
    r = run([tool, "overhead", "--work", os.path.join(work, "overhead"), "--iterations", str(iterations)] + images)
    if r.returncode != 0:
        broke(f"overhead benchmark failed: {r.stderr[-500:]}")
        row("2. pipeline overhead per payload", "failed", "", "< 1 ms", "n/a")
        return None
    data = json.loads(r.stdout)
    total = data["total"]
    s = {"median": total["median_us"] / 1000, "min": total["min_us"] / 1000, "max": total["max_us"] / 1000,
         "n": total["n"]}
    row("2. pipeline overhead / payload (in-process)", fmt(s, "ms", 3) + f" p90 {total['p90_us'] / 1000:.3f} ms",
        "(no curl equivalent)", "< 1 ms (median)", verdict(s["median"] < 1.0))
    stages = ", ".join(f"{k} {data[k]['median_us']:.0f}" for k in
                       ("parse", "route", "receipt", "create", "verify", "publish", "trace"))
    receipt = data["receipt"]
    rest = data["without_receipt"]
    row("   stage medians, µs", stages)
    row("   all but the receipt, per payload",
        f"{rest['median_us'] / 1000:.3f} ms [{rest['min_us'] / 1000:.3f}–{rest['max_us'] / 1000:.3f}] "
        f"p90 {rest['p90_us'] / 1000:.3f} ms")
    row("   receipt (2 fsyncs) alone, µs",
        f"{receipt['median_us']:.0f} [{receipt['min_us']:.0f}–{receipt['max_us']:.0f}] p90 {receipt['p90_us']:.0f}")
    return data



def bench_record(nse, srv, work, reps, have_time):
    """Row 11: `process --record` on the 10 MiB JPEG against the same run without it: whole-process wall
    time and peak RSS, the sides alternating run by run (issue 31: at most 1.10x the wall time, peak RSS
    within 2 MiB). The recording's body goes to DIR/bodies as it arrives (fsynced, renamed)."""
    att, rec = os.path.join(work, "att-rec"), os.path.join(work, "rec")
    clear(att)
    payload = write_payload(os.path.join(work, "rec-big.json"), srv.url("/size/cap"))
    timefile = os.path.join(work, "time-rec.txt")
    wall = {"plain": [], "record": []}
    rss = {"plain": [], "record": []}

    def one(kind):
        extra = ["--record", rec] if kind == "record" else []
        cmd = [nse, "process", "--attachments", att, "--ca-file", srv.ca] + extra + [payload]
        ms, r, _ = timed_cpu(cmd)
        if check_process(f"row 11 {kind}", r, "attached", CAP) is not None:
            wall[kind].append(ms)
        empty(att)
        shutil.rmtree(rec, ignore_errors=True)
        settle()
        if have_time:
            kib, r = peak_rss_kib(cmd, timefile)
            if r.returncode == 0 and kib:
                rss[kind].append(kib / 1024)
            empty(att)
            shutil.rmtree(rec, ignore_errors=True)
            settle()

    one("plain"), one("record")                  # warm-up, not counted
    for kind in wall:
        wall[kind].clear(), rss[kind].clear()
    for i in range(reps):
        for kind in (("plain", "record") if i % 2 == 0 else ("record", "plain")):
            one(kind)
    w_plain, w_rec = stats(wall["plain"]), stats(wall["record"])
    ok_wall = None if not (w_plain and w_rec) else w_rec["median"] <= 1.10 * w_plain["median"]
    times = f" ({w_rec['median'] / w_plain['median']:.2f}x)" if w_plain and w_rec else ""
    row("11. process --record, 10 MiB JPEG — wall", fmt(w_rec, "ms") + times,
        "without --record: " + fmt(w_plain, "ms"), "<= 1.10x", verdict(ok_wall))
    r_plain, r_rec = stats(rss["plain"]), stats(rss["record"])
    ok_rss = None if not (r_plain and r_rec) else r_rec["median"] - r_plain["median"] <= 2.0
    row("   peak RSS", fmt(r_rec, "MiB"), "without --record: " + fmt(r_plain, "MiB"), "within 2 MiB", verdict(ok_rss))


def bench_rss(nse, srv, work, reps, static_nse=None):
    """Row 3: peak RSS of whole `process` runs, 10 KiB vs 10 MiB (and context: floor, curl; and the
    --static-swift-stdlib build when asked)."""
    att, container = os.path.join(work, "att-rss"), os.path.join(work, "container-rss")
    clear(att), clear(container)
    timefile = os.path.join(work, "time-v.txt")
    small_url, big_url = srv.url("/size/n?bytes=10240"), srv.url("/size/cap")
    samples = {"10k": [], "10m": [], "floor": [], "curl10m": [], "static10k": [], "static10m": []}

    def one(kind):
        binary = nse
        if kind.startswith("static"):
            binary, kind_ = static_nse, kind[len("static"):]
        else:
            kind_ = kind
        if kind == "floor":
            kib, r = peak_rss_kib([nse, "--version"], timefile)
            ok = r.returncode == 0
        elif kind == "curl10m":
            target = os.path.join(work, "curl-rss-image")
            kib, r = peak_rss_kib(curl_cmd(srv.ca, big_url, target), timefile)
            ok = r.returncode == 0
            if os.path.exists(target):
                os.unlink(target)
        else:
            payload = write_payload(os.path.join(work, f"rss-{kind}.json"), small_url if kind_ == "10k" else big_url)
            kib, r = peak_rss_kib([binary, "process", "--container", container, "--attachments", att, "--ca-file",
                                   srv.ca, payload], timefile)
            ok = check_process(f"RSS {kind}", r, "attached", 10240 if kind_ == "10k" else CAP) is not None
            empty(att)
        if ok and kib:
            samples[kind].append(kib / 1024)
        elif ok:
            broke(f"no 'Maximum resident set size' from GNU time for {kind}")

    order = ["10k", "10m", "floor", "curl10m"] + (["static10k", "static10m"] if static_nse else [])
    for i in range(reps):
        for kind in (order if i % 2 == 0 else order[::-1]):
            one(kind)
    small, big = stats(samples["10k"]), stats(samples["10m"])
    ok_abs = None if not big else big["median"] < 24
    ok_delta = None if not (small and big) else big["median"] - small["median"] <= 1.0
    curl_big = stats(samples["curl10m"])
    ok_curl = None if not (big and curl_big) else big["median"] <= curl_big["median"]
    row("3a. peak RSS, process, 10 MiB image", fmt(big, "MiB"), "curl: " + fmt(curl_big, "MiB"),
        "< 24 MiB; <= curl's", f"{verdict(ok_abs)}; {verdict(ok_curl)}")
    delta = f" (10 MiB − 10 KiB = {big['median'] - small['median']:+.2f} MiB)" if small and big else ""
    row("3b. peak RSS, process, 10 KiB image", fmt(small, "MiB") + delta,
        "`--version` floor: " + fmt(stats(samples["floor"]), "MiB"), "10 MiB ≤ 10 KiB + 1 MiB", verdict(ok_delta))
    if static_nse:
        s_small, s_big = stats(samples["static10k"]), stats(samples["static10m"])
        delta = f" (10 MiB − 10 KiB = {s_big['median'] - s_small['median']:+.2f} MiB)" if s_small and s_big else ""
        row("3s. peak RSS, 10 MiB, --static-swift-stdlib", fmt(s_big, "MiB") + delta,
            "10 KiB: " + fmt(s_small, "MiB"), "< 24 MiB", verdict(None if not s_big else s_big["median"] < 24) + " (what-if)")
    rss_breakdown(nse, srv, work, att, container, big_url)
    return samples


def rss_breakdown(nse, srv, work, att, container, big_url):
    """Row 3's notes: Rss / Pss by mapping at exit (memory_map.py), one run each of the 10 MiB `process`, curl on
    the same URL and `--version`, each under gdb, stopped at its exit_group; a single run, so ±0.3 MiB of the
    binary's text is where its 64 KiB fault-around windows fall (the load address is random)."""
    payload = write_payload(os.path.join(work, "rss-map.json"), big_url)
    own = memory_map.capture_at_exit([nse, "process", "--container", container, "--attachments", att, "--ca-file",
                                      srv.ca, payload], os.path.join(work, "smaps-nse.txt"), ENV)
    attached = bool(os.listdir(att))
    empty(att)
    floor = memory_map.capture_at_exit([nse, "--version"], os.path.join(work, "smaps-floor.txt"), ENV)
    target = os.path.join(work, "curl-rss-image")
    theirs = memory_map.capture_at_exit(curl_cmd(srv.ca, big_url, target), os.path.join(work, "smaps-curl.txt"), ENV)
    if os.path.exists(target):
        os.unlink(target)
    if own is None or floor is None or not attached:
        broke("row 3: no memory map of carillon-nse at exit (gdb missing, or the run attached nothing)")
        return
    sides = [("process 10 MiB", own, os.path.basename(nse)), ("--version", floor, os.path.basename(nse))]
    if theirs is not None:
        sides.insert(1, ("curl 10 MiB", theirs, "curl"))
    else:
        NOTES.append("Row 3: curl's breakdown needs gdb (not installed): only carillon-nse's is given.")
    NOTES.append("Row 3, KiB by mapping at exit (/proc/PID/smaps; each process stopped by gdb at exit_group), "
                 "Rss / Pss (clean + dirty pages):\n"
                 + "\n".join(memory_map.table_lines(sides)))


def bench_expiry(nse, tool, srv, work, reps_cli, reps_inproc):
    """Row 4: time-will-expire while stalled in the TLS handshake."""
    url = srv.url("/x", port=srv.info["handshake_stall_port"])
    att = os.path.join(work, "att-expire")
    clear(att)
    over = []
    for i in range(reps_cli):
        payload = write_payload(os.path.join(work, "expire.json"), url)
        _, r = timed([nse, "process", "--expire-after", "0.2", "--attachments", att, "--ca-file", srv.ca, payload])
        lines = check_process("expiry", r, "expired")
        if lines:
            over.append(lines[0]["elapsed_ms"] - 200)
        if os.listdir(att):
            broke(f"expiry left files behind: {os.listdir(att)}")
            clear(att)
    s = stats(over)
    row("4a. expiry while stalled in TLS handshake (CLI)", "elapsed_ms − 200: " + fmt(s, "ms", 2), "",
        "< 10 ms", verdict(None if not s else s["median"] < 10))
    r = run([tool, "expire", "--url", url, "--ca-file", srv.ca, "--after", "0.2", "--reps", str(reps_inproc),
             "--work", os.path.join(work, "expire-inproc")])
    if r.returncode != 0:
        broke(f"in-process expiry benchmark failed: {r.stderr[-300:]}")
        return
    data = json.loads(r.stdout)
    h, f = data["handler"], data["finished"]
    row("4b. timeWillExpire() → handler (in-process)",
        f"{h['median_us'] / 1000:.3f} ms [{h['min_us'] / 1000:.3f}–{h['max_us'] / 1000:.3f}] n={h['n']}",
        f"download thread done: {f['median_us'] / 1000:.2f} ms [{f['min_us'] / 1000:.2f}–{f['max_us'] / 1000:.2f}]",
        "< 10 ms", verdict(h["median_us"] < 10_000 and f["median_us"] < 10_000))


def curl_safety(ca):
    """The reference command's flags without its URL and -o: one list for every curl peer of row 5."""
    return ["-q", "-s", "--cacert", ca, "--proto", "=https", "--proto-redir", "=https",
            "--max-redirs", "5", "--max-time", "20", "--max-filesize", str(CAP)]


def process_cpu_ms(pid):
    """user+sys CPU ms a running process has used so far (/proc/PID/stat), e.g. the test server's."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def server_stats(srv):
    """The test server's /stats: connections and TLS handshakes (fresh and resumed) since its reset."""
    r = run(["curl", "-q", "-s", "--cacert", srv.ca, srv.url("/stats")])
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def receipts_floor(directory, count, threads):
    """What SPEC §4's durability costs the file system alone, with no tool: `count` receipt-sized files
    written by `threads` threads at once, each as the receipt store writes one (an exclusive 0600
    temporary, one write, fsync, link to its final name, unlink of the temporary, then an fsync of the
    directory, which concurrent writers' journal commits share). Returns the wall time in ms."""
    import threading
    clear(directory)
    body = b'{"delivery_id":"00000000-0000-4000-8000-000000000000","received_at":1700000000000}\n'

    def writer(first):
        for i in range(first, count, threads):
            temporary = os.path.join(directory, f".tmp-{i}")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(fd, body)
            os.fsync(fd)
            os.close(fd)
            os.link(temporary, os.path.join(directory, f"{i:04d}.receipt"))
            os.unlink(temporary)
            dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            os.fsync(dfd)
            os.close(dfd)

    settle()
    workers = [threading.Thread(target=writer, args=(t,)) for t in range(threads)]
    start_ns = time.perf_counter_ns()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return (time.perf_counter_ns() - start_ns) / 1e6


def bench_jobs(nse, srv, work, count, reps):
    """Row 5: `count` payloads with --jobs 1, 4, 8 against curl's own ways of fetching a batch: a shell
    loop (one curl per URL, one at a time), `xargs -P N curl` (one curl per URL, N at a time) and
    `curl --parallel --parallel-max N` (one curl, one multi handle: connections and TLS sessions shared)."""
    routes = ["/img/png", "/img/jpeg", "/img/gif", "/size/n?bytes=10240"]
    urls = [srv.url(routes[i % len(routes)]) for i in range(count)]
    pdir = os.path.join(work, "jobs-payloads")
    url_file = os.path.join(work, "jobs-urls.txt")
    with open(url_file, "w") as f:
        f.write("\n".join(urls) + "\n")
    out = os.path.join(work, "curl-jobs")
    loop = os.path.join(work, "curl-loop.sh")
    with open(loop, "w") as f:
        f.write('#!/bin/bash\n# The reference: one curl per URL, as a shell script would do it.\n'
                'set -e\nca="$1"; urls="$2"; out="$3"; i=0\n'
                'while read -r u; do\n  i=$((i+1))\n'
                f'  curl -q -s --cacert "$ca" --proto =https --proto-redir =https --max-redirs 5 --max-time 20 '
                f'--max-filesize {CAP} -o "$out/$i" "$u"\n'
                'done < "$urls"\n')
    # curl --parallel reads its URLs and outputs from a config file (-K): one url/output pair per image.
    parallel_config = os.path.join(work, "curl-parallel.conf")
    with open(parallel_config, "w") as f:
        for i, u in enumerate(urls, 1):
            f.write(f'url = "{u}"\noutput = "{out}/{i}"\n')
    # xargs -n 2 appends "FILE URL" to `curl … -o`: one curl per URL, N running at a time.
    pairs = os.path.join(work, "xargs-pairs.txt")
    with open(pairs, "w") as f:
        for i, u in enumerate(urls, 1):
            f.write(f"{out}/{i} {u}\n")
    att, container = os.path.join(work, "att-jobs"), os.path.join(work, "container-jobs")
    # bare: no --container; alone: no --container and --no-share (each payload downloads its own image, as
    # each of curl's transfers does: the per-transfer comparison, since sharing leaves 4 downloads of 200)
    ours = [("jobs", 1), ("jobs", 4), ("jobs", 8), ("bare", 4), ("bare", 8), ("alone", 4)]
    # xargs -P 8 is left out: one process per URL makes it as slow as -P 4 (~4.5 s), and it adds nothing.
    peers = [("loop", 1), ("parallel", 4), ("parallel", 8), ("xargs", 4)]
    kinds = ours + peers
    wall = {k: [] for k in kinds}
    cpu = {k: [] for k in kinds}
    server_cpu = {k: [] for k in kinds}
    connections = {k: [] for k in kinds}
    full_handshakes = {k: [] for k in kinds}    # TLS handshakes that did not resume a session
    slowest = {k: [] for k in ours}             # per run: the largest elapsed_ms of one payload

    def command(kind):
        way, n = kind
        if way == "loop":
            return ["bash", loop, srv.ca, url_file, out]
        if way == "parallel":
            return ["curl"] + curl_safety(srv.ca) + ["--parallel", "--parallel-max", str(n), "-K", parallel_config]
        if way == "xargs":
            return ["xargs", "-P", str(n), "-n", "2", "-a", pairs, "curl"] + curl_safety(srv.ca) + ["-o"]
        receipts = ["--container", container] if way == "jobs" else []
        share = ["--no-share"] if way == "alone" else []
        return [nse, "process", "--jobs", str(n)] + receipts + share + ["--attachments", att, "--ca-file", srv.ca, pdir]

    def one(kind):
        way, n = kind
        if kind in peers:
            clear(out)
        else:
            clear(pdir), empty(att), drain_receipts(container)
            for i, u in enumerate(urls):
                write_payload(os.path.join(pdir, f"{i:04d}.json"), u)
        # Untimed, as in row 1: the last run's files, written back now, would land on this run's fsyncs.
        settle()
        run(["curl", "-q", "-s", "--cacert", srv.ca, "-o", os.devnull, srv.url("/stats/reset")])
        server_before = process_cpu_ms(srv.proc.pid)
        ms, r, cpu_ms = timed_cpu(command(kind))
        server_after = process_cpu_ms(srv.proc.pid)
        stats_after = server_stats(srv)
        label = f"--jobs {n}" if kind in ours else f"curl {way} {n}"
        if kind in peers:
            files = len(os.listdir(out))
            ok = r.returncode == 0 and files == count
            if not ok:
                broke(f"{label}: exit {r.returncode}, {files} files; {r.stderr[-200:]}")
        else:
            lines = check_process(label, r, "attached", count=count)
            ok = lines is not None
            if ok:
                slowest[kind].append(max(line["elapsed_ms"] for line in lines))
        if ok:
            wall[kind].append(ms)
            cpu[kind].append(cpu_ms)
            if server_before is not None and server_after is not None:
                server_cpu[kind].append(server_after - server_before)
            if stats_after:
                connections[kind].append(stats_after["connections"])
                full_handshakes[kind].append(stats_after["tls_handshakes"] - stats_after["tls_resumed"])

    floor_dir = os.path.join(work, "receipts-floor")
    floor = []                                  # per run: receipts_floor(…, count, 4)
    for i in range(reps):
        for kind in kinds[i % len(kinds):] + kinds[:i % len(kinds)]:
            one(kind)
        floor.append(receipts_floor(floor_dir, count, 4))

    def median(values):
        return statistics.median(values) if values else None

    def ratio(kind, peer):
        a, b = median(wall[kind]), median(wall[peer])
        return a / b if a and b else None

    def side(kind):
        """Wall (median [min–max]), then CPU, server CPU, connections and full handshakes, medians."""
        extra = [f"cpu {median(cpu[kind]):.0f} ms"] if cpu[kind] else []
        if server_cpu[kind]:
            extra.append(f"server cpu {median(server_cpu[kind]):.0f} ms")
        if connections[kind]:
            extra.append(f"{median(connections[kind]):.0f} conn, {median(full_handshakes[kind]):.0f} full TLS")
        return fmt(stats(wall[kind]), "ms", 0) + (f"; {', '.join(extra)}" if extra else "")

    def ours_text(kind, peer, peer_label):
        r = ratio(kind, peer)
        slow = stats(slowest[kind])
        return (side(kind) + (f"; {r:.2f}x {peer_label}" if r else "")
                + (f"; slowest payload {slow['median']:.0f} ms" if slow else ""))

    peer_names = {"loop": "curl loop", "parallel": "curl --parallel --parallel-max {}", "xargs": "xargs -P {} curl"}

    def peer_text(peer):
        way, n = peer
        return f"{peer_names[way].format(n)}: {side(peer)}"

    r4 = ratio(("jobs", 4), ("parallel", 4))
    row(f"5. {count} payloads, --jobs 1", ours_text(("jobs", 1), ("loop", 1), "curl loop"), peer_text(("loop", 1)))
    row(f"5. {count} payloads, --jobs 4", ours_text(("jobs", 4), ("parallel", 4), "curl --parallel 4"), peer_text(("parallel", 4)),
        "≤ 1.30× curl --parallel --parallel-max 4 (third round)", verdict(None if r4 is None else r4 <= 1.30))
    r4w = ratio(("bare", 4), ("parallel", 4))
    row("5w. --jobs 4, no --container", ours_text(("bare", 4), ("parallel", 4), "curl --parallel 4"),
        "like for like: curl stores no receipt either", "≤ 1.0× (second round)",
        verdict(None if r4w is None else r4w <= 1.0))
    r4n = ratio(("alone", 4), ("parallel", 4))
    row("5n. --jobs 4 --no-share, no --container", ours_text(("alone", 4), ("parallel", 4), "curl --parallel 4"),
        f"like for like: {count} downloads each", "≤ 1.0× (fifth round, per transfer)",
        verdict(None if r4n is None else r4n <= 1.0))
    added = median(wall[("jobs", 4)]) - median(wall[("bare", 4)]) if wall[("jobs", 4)] and wall[("bare", 4)] else None
    allowed = 1.30 * median(wall[("parallel", 4)]) - median(wall[("bare", 4)]) if wall[("parallel", 4)] and wall[("bare", 4)] else None
    row(f"5f. {count} receipts alone, 4 threads", "file system, no tool: " + fmt(stats(floor), "ms", 0)
        + (f"; what --container adds to --jobs 4: {added:.0f} ms" if added is not None else ""),
        f"the target leaves {allowed:.0f} ms for it" if allowed is not None else "", "diagnostic (the floor of row 5)")
    row(f"5. {count} payloads, --jobs 8", ours_text(("jobs", 8), ("parallel", 8), "curl --parallel 8"), peer_text(("parallel", 8)))
    row("5w. --jobs 8, no --container", ours_text(("bare", 8), ("parallel", 8), "curl --parallel 8"), "", "diagnostic")
    row("5x. one curl per URL, 4 at a time", "", peer_text(("xargs", 4)), "diagnostic")
    NOTES.append("Row 5: cpu = the client's user+sys time (getrusage: the process and its children); server cpu = the "
                 "test server's over the same run (/proc/PID/stat); conn and full TLS = the server's /stats (TCP "
                 "connections accepted, TLS handshakes that did not resume a session). 5w is like for like with curl, "
                 "which stores no receipt, but its payloads share their 4 distinct images' downloads (SPEC §6a); 5n is the same with "
                 "--no-share: 200 downloads, as curl makes, the per-transfer comparison. With --container every receipt's file "
                 "is fsynced by its worker, and "
                 "the receipts linked at the same moment share one directory fsync (ReceiptCommitGroup). 5f: the same "
                 "receipts written by 4 Python threads, each with its own fsyncs (file, then directory), and nothing "
                 "else: what SPEC §4's durability costs this file system; when the time --container adds to --jobs 4 "
                 "is near it, the rest of the path is not what misses.")
    one_job = median(wall[("jobs", 1)])
    for n in (4, 8):
        s = median(wall[("jobs", n)])
        if s and one_job and s > 1.5 * one_job:
            NOTES.append(
                f"--jobs {n} is {s / one_job:.1f}x SLOWER than --jobs 1 (slowest payload "
                f"{stats(slowest[('jobs', n)])['median']:.0f} ms). Payloads stuck for whole seconds are the signature of "
                "libdispatch thread-pool starvation (on Linux its monitor adds one worker per second): "
                "blocking work queued on the width-limited (= CPU count) DispatchQueue.global(), as "
                "PayloadRunner and NotificationService once did. See README.md, 'Findings, first round'.")
            break
    return wall


def bench_drain(nse, tool, work, reps, count=1000):
    """Row 6: a drain of `count` receipts, the CLI as a whole process and the core API in-process, with
    the container and queue on the work directory's disk and on tmpfs; beside each, what the file system
    alone takes to unlink the same number of receipts written the same way (the drain must remove every
    receipt, and on ext4 with `discard` freeing each one's block is the cost)."""
    places = [("disk", work)]
    if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
        places.append(("tmpfs", tempfile.mkdtemp(prefix="carillon-bench-drain-", dir="/dev/shm")))
    try:
        for place, base in places:
            cli, core, unlink_alone, unlink_four = [], [], [], []
            for i in range(reps):
                for kind in (["cli", "core", "unlink", "unlink4"] if i % 2 == 0 else ["unlink4", "unlink", "core", "cli"]):
                    container, queue = os.path.join(base, "drain-container"), os.path.join(base, "drain-queue")
                    shutil.rmtree(container, ignore_errors=True), shutil.rmtree(queue, ignore_errors=True)
                    p = run([tool, "populate", "--container", container, "--count", str(count)])
                    if p.returncode != 0:
                        broke(f"populating {count} receipts failed: {p.stderr[-300:]}")
                        return
                    receipts = os.path.join(container, "CarillonReceipts")
                    settle()                         # the receipts on disk, as an app launch finds them
                    if kind == "cli":
                        ms, r = timed([nse, "drain", "--container", container, "--queue", queue])
                        queued = len([l for l in r.stdout.splitlines() if l.strip()])
                        if r.returncode != 0 or queued != count:
                            broke(f"drain CLI: exit {r.returncode}, {queued} events; {r.stderr[-300:]}")
                            continue
                        cli.append(ms)
                    elif kind == "core":
                        r = run([tool, "drain", "--container", container, "--queue", queue])
                        if r.returncode != 0 or json.loads(r.stdout)["queued"] != count:
                            broke(f"drain (core API): {r.stdout} {r.stderr[-300:]}")
                            continue
                        core.append(json.loads(r.stdout)["ms"])
                    else:
                        # The same unlinks one at a time, and four at a time as the drain makes them
                        # (threads: each os.unlink lets go of the GIL while the kernel works).
                        paths = [os.path.join(receipts, n) for n in os.listdir(receipts) if n.endswith(".receipt")]
                        threads = 4 if kind == "unlink4" else 1
                        parts = [paths[k::threads] for k in range(threads)]
                        workers = [threading.Thread(target=lambda part=part: [os.unlink(p) for p in part]) for part in parts]
                        start_ns = time.perf_counter_ns()
                        for w in workers:
                            w.start()
                        for w in workers:
                            w.join()
                        (unlink_four if kind == "unlink4" else unlink_alone).append((time.perf_counter_ns() - start_ns) / 1e6)
                        continue
                    if any(n.endswith(".receipt") for n in os.listdir(receipts)):
                        broke("drain left receipts behind")
            # SPEC §7, third round: on disk the floor is the file system's own cost of unlinking the
            # receipts, measured in the same run, so the target there is a ratio to it; on tmpfs, < 50 ms.
            # The drain unlinks four at a time (fifth round): the floor is given both ways, and the ratio
            # to the four-at-a-time one, the cost of the same unlinks made as the drain makes them, says
            # what the drain adds.
            ratio = ratio4 = None
            if cli and unlink_alone:
                ratio = stats(cli)["median"] / max(stats(unlink_alone)["median"], 0.001)
            if cli and unlink_four:
                ratio4 = stats(cli)["median"] / max(stats(unlink_four)["median"], 0.001)
            if place == "disk":
                ok = None if ratio is None else ratio <= 1.20
                target = "≤ 1.20× unlinking alone, whole process"
            else:
                ok = None if not cli else stats(cli)["median"] < 50
                target = "< 50 ms whole process"
            ours = "CLI whole process: " + fmt(stats(cli), "ms", 0)
            if ratio is not None:
                ours += f"; {ratio:.2f}x unlinking alone"
            if ratio4 is not None:
                ours += f", {ratio4:.2f}x four at a time"
            row(f"6. drain of {count} receipts, on {place}", ours,
                "core API in-process: " + fmt(stats(core), "ms", 0) + "; unlinking the receipts alone: "
                + fmt(stats(unlink_alone), "ms", 0) + "; four at a time: " + fmt(stats(unlink_four), "ms", 0), target,
                verdict(ok))
            if place == "disk":
                row("   the same, against four at a time", f"{ratio4:.2f}x" if ratio4 is not None else "n/a",
                    "unlinking four at a time, as the drain does: " + fmt(stats(unlink_four), "ms", 0),
                    "≤ 1.20× (the stricter floor)", verdict(None if ratio4 is None else ratio4 <= 1.20))
    finally:
        for place, base in places[1:]:
            shutil.rmtree(base, ignore_errors=True)


def bench_report(nse, srv, work, reps, count=1000):
    """Row 7: `process --report` over `count` payloads whose images repeat (four routes round-robin):
    the whole-process time with and without the report, alternating, the difference, and the page's size."""
    routes = ["/img/png", "/img/jpeg", "/img/gif", "/img/gif-animated"]
    pdir, att = os.path.join(work, "report-payloads"), os.path.join(work, "att-report")
    clear(pdir)
    for i in range(count):
        write_payload(os.path.join(pdir, f"{i:04d}.json"), srv.url(routes[i % len(routes)]))
    report = os.path.join(work, "report.html")
    samples = {"without": [], "with": []}
    written = []
    size = None
    for i in range(reps):
        for kind in (["without", "with"] if i % 2 == 0 else ["with", "without"]):
            empty(att)
            if os.path.exists(report):
                os.unlink(report)
            settle()
            extra = ["--report", report] if kind == "with" else []
            ms, r = timed([nse, "process", "--jobs", "4", "--attachments", att, "--ca-file", srv.ca] + extra + [pdir])
            if check_process(f"report ({kind})", r, "attached", count=count) is None:
                continue
            if kind == "with":
                if not os.path.isfile(report):
                    broke("process --report wrote no report")
                    continue
                size = os.path.getsize(report)
                # The tool's own clock around rendering and writing: "report: FILE (N payloads, B bytes, written in X ms)".
                m = re.search(r"report: .* written in ([0-9.]+) ms\)", r.stderr)
                if m:
                    written.append(float(m.group(1)))
            samples[kind].append(ms)
    a, b = stats(samples["with"]), stats(samples["without"])
    delta = a["median"] - b["median"] if a and b else None
    w = stats(written)
    row(f"7. report of {count} payloads (4 distinct images), --jobs 4",
        ("written in " + fmt(w, "ms", 1) + "; " if w else "") + (f"{size / 1e6:.2f} MB" if size else "no report"),
        "whole process with: " + fmt(a, "ms", 0) + "; without: " + fmt(b, "ms", 0)
        + (f" (difference {delta:+.0f} ms)" if delta is not None else ""),
        "< 1 s, < 5 MB", verdict(None if w is None or size is None else w["median"] < 1000 and size < 5_000_000))


EVENTS_API = os.path.join(ROOT, "TestAssets", "Server", "events_api.py")


def write_queue(directory, count, layout="v2", per_file=1000):
    """An event queue of `count` received events, written directly (as EventQueue writes them: 0700
    directory, 0600 files, .sequence past the last), so that building it costs no fsyncs. Layout "v2":
    format-2 files of `per_file` events each, as that many drains of `per_file` receipts leave them;
    "v1": one format-1 file per event, as a queue written before format 2 is."""
    os.makedirs(directory, mode=0o700)
    os.chmod(directory, 0o700)
    at = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 60))

    def record(fmt, n):
        did = f"01937b21-0000-7000-8000-{n:012d}"
        return json.dumps({"format": fmt, "sequence": n, "type": "received", "delivery_id": did, "at": at},
                          separators=(",", ":")) + "\n", did

    def write(name, text):
        fd = os.open(os.path.join(directory, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, text.encode())
        os.close(fd)

    if layout == "v1":
        for n in range(1, count + 1):
            text, did = record(1, n)
            write(f"received-{did}.event", text)
    else:
        for first in range(1, count + 1, per_file):
            numbers = range(first, min(first + per_file, count + 1))
            lines = [record(2, n)[0] for n in numbers]
            write(f"batch-bench-{first}.events", f'{{"format":2,"events":{len(lines)}}}\n' + "".join(lines))
    fd = os.open(os.path.join(directory, ".sequence"), os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, f'{{"format":1,"next":{count + 1}}}\n'.encode())
    os.close(fd)


def queue_files(directory):
    return [n for n in os.listdir(directory) if n.endswith(".event") or n.endswith(".events")]


def api_get(ca, url):
    return json.loads(run(["curl", "-q", "-s", "--cacert", ca, "--max-time", "10", url]).stdout or "{}")


def bench_upload(nse, work, reps, count=10000):
    """Row 8: `upload` of `count` queued events to the local events API stand-in (100 requests of 100
    events, one connection), whole process; and the server's own handling time in that run."""
    if run([nse, "upload", "--help"]).returncode != 0:
        row(f"8. upload of {count} events", "CLI has no `upload` yet", "", "< 1 s", "n/a")
        return
    key_file = os.path.join(work, "mobile-key")
    with open(key_file, "w") as f:
        f.write("bench-mobile-key\n")
    os.chmod(key_file, 0o600)
    log = open(os.path.join(work, "events-api.log"), "w")
    api = subprocess.Popen([sys.executable, EVENTS_API, "--exit-on-stdin-eof", "--key-file", key_file],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=ENV, text=True)
    try:
        ready, _, _ = select.select([api.stdout], [], [], 60)
        line = api.stdout.readline() if ready else ""
        if not line:
            broke("events API stand-in printed no ready line")
            return
        info = json.loads(line)
        base, ca = info["base_url"], info["ca_file"]
        assert base.startswith(f"https://{LOOPBACK}:"), base
        # The queue as the tool writes it (format 2: ten files of 1,000, as ten drains leave them) on the
        # work directory's disk, and on tmpfs when there is one; and an old format-1 queue (one file per
        # event) on disk, which is still read: the difference is the file system's cost of 10,000 unlinks.
        places = [("disk", work, "v2")]
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            places.append(("tmpfs", tempfile.mkdtemp(prefix="carillon-bench-upload-", dir="/dev/shm"), "v2"))
        places.append(("disk, old format-1 queue", work, "v1"))
        for place, directory, layout in places:
            template = os.path.join(directory, "upload-template")
            write_queue(template, count, layout)
            walls, server_ms, connections = [], [], []
            for rep in range(reps):
                queue = os.path.join(directory, f"upload-queue-{rep}")
                shutil.copytree(template, queue)
                os.chmod(queue, 0o700)
                run(["curl", "-q", "-s", "--cacert", ca, "-X", "POST", "--data-binary", "", f"{base}/_clear"])
                settle()
                before = api_get(ca, f"{base}/_stats")
                ms, r = timed([nse, "upload", "--queue", queue, "--endpoint", base, "--key-file", key_file, "--ca-file", ca])
                after = api_get(ca, f"{base}/_stats")
                lines = [l for l in r.stdout.splitlines() if l.strip()]
                left = queue_files(queue)
                recorded = len(api_get(ca, f"{base}/v1/recorded").get("events", []))
                if r.returncode != 0 or len(lines) != count // 100 or left or recorded != count:
                    broke(f"upload: exit {r.returncode}, {len(lines)} requests, {len(left)} left, {recorded} recorded; {r.stderr[-300:]}")
                    return
                walls.append(ms)
                server_ms.append(after.get("server_ms", 0) - before.get("server_ms", 0))
                # The stats request itself is one connection; the rest are the upload's.
                connections.append(after.get("connections", 0) - before.get("connections", 0) - 1)
                shutil.rmtree(queue, ignore_errors=True)
            # What the file system alone takes to unlink the same files (no tool, no network).
            queue = os.path.join(directory, "unlink-only")
            shutil.copytree(template, queue)
            settle()
            began = time.perf_counter()
            files = queue_files(queue)
            for name in files:
                os.unlink(os.path.join(queue, name))
            unlink_ms = (time.perf_counter() - began) * 1000
            shutil.rmtree(queue, ignore_errors=True)
            shutil.rmtree(template, ignore_errors=True)
            if directory != work:
                shutil.rmtree(directory, ignore_errors=True)
            w, sv = stats(walls), stats(server_ms)
            row(f"8. upload of {count} events ({count // 100} requests), queue on {place}", "whole process: " + fmt(w, "ms", 0),
                f"server: {sv['median']:.0f} ms; unlinking its {len(files)} files alone: {unlink_ms:.0f} ms; connections: {max(connections)}",
                "< 1 s whole process", verdict(w["median"] < 1000))
            NOTES.append(f"Row 8 ({place}): of the upload's median {w['median']:.0f} ms, the Python stand-in "
                         f"(TestAssets/Server/events_api.py) spent {sv['median']:.0f} ms handling the requests, and "
                         f"unlinking the queue's {len(files)} files costs {unlink_ms:.0f} ms on that file system by itself "
                         f"(the removals are synced once at the end).")
    finally:
        try:
            api.stdin.close()
            api.wait(timeout=10)
        except (subprocess.TimeoutExpired, OSError, ValueError):
            api.terminate()
            api.wait(timeout=10)
        log.close()


def small_image_latency(srv, work):
    """Detects the server's Nagle/delayed-ACK stall on small responses (curl's own timings)."""
    fmt_ = "%{time_appconnect} %{time_starttransfer} %{time_total}"
    target = os.path.join(work, "nagle-probe")
    gaps = []
    for _ in range(3):
        r = run(["curl", "-q", "-s", "--cacert", srv.ca, "-o", target, "-w", fmt_, srv.url("/size/n?bytes=10240")])
        if r.returncode == 0:
            app, ttfb, total = (float(x) for x in r.stdout.split())
            gaps.append((total - app) * 1000)
    return statistics.median(gaps) if gaps else None


# ---------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="few repetitions (CI): well under a minute after the build")
    ap.add_argument("--no-build", action="store_true", help="use the existing release builds")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--static-what-if", action="store_true",
                    help="also build with --static-swift-stdlib (scratch PATH-static) and time/measure it "
                         "beside the normal build in rows 1 and 3 (a what-if for Package.swift)")
    ap.add_argument("--only", default="1,2,3,4,5,6,7,8,9,10,11,12,13,14,15", help="comma-separated rows to run (default: all)")
    ap.add_argument("--no-nginx", action="store_true",
                    help="do not install nginx-light when nginx is missing (rows 1n/1np then say so and are skipped)")
    ap.add_argument("--scratch-path", default=os.environ.get("CARILLON_BENCH_SCRATCH", "/tmp/build-bench"),
                    help="swift build scratch path of the main package (the benchmark package uses PATH-pkg)")
    args = ap.parse_args(argv)
    quick = args.quick
    only = set(args.only.split(","))
    reps = dict(big=3, rss=1, exp_cli=2, exp_in=3, jobs_n=40, jobs_reps=1, drain=1, overhead=300, report=1, upload=1, replay_many=1) if quick else \
        dict(big=30, rss=5, exp_cli=9, exp_in=25, jobs_n=200, jobs_reps=5, drain=3, overhead=3000, report=3, upload=3, replay_many=5)

    began = time.monotonic()
    load_before = load()
    for tool in ("curl", "swift", "bash"):
        if not shutil.which(tool):
            broke(f"'{tool}' is not installed")
            return 1
    have_time = ensure_gnu_time()

    scratch, pkg_scratch = args.scratch_path, args.scratch_path + "-pkg"
    if not args.no_build:
        if not build(scratch, ROOT, "carillon-nse") or not build(pkg_scratch, HERE, "carillon-bench"):
            return 1
    static_nse = None
    if args.static_what_if:
        static_scratch = args.scratch_path + "-static"
        if not args.no_build and not build(static_scratch, ROOT, "carillon-nse --static-swift-stdlib",
                                           ["--static-swift-stdlib"]):
            return 1
        static_nse = os.path.join(static_scratch, "release", "carillon-nse")
    nse = os.path.join(scratch, "release", "carillon-nse")
    tool = os.path.join(pkg_scratch, "release", "carillon-bench")
    for binary in (nse, tool) + ((static_nse,) if static_nse else ()):
        if not os.access(binary, os.X_OK):
            broke(f"{binary} is missing (build first, or drop --no-build)")
            return 1
    built = time.monotonic()

    work = tempfile.mkdtemp(prefix="carillon-bench-")
    try:
        srv = Server(work)
    except (RuntimeError, OSError, ValueError) as e:
        broke(f"test server: {e}")
        return 1
    try:
        ten_k = os.path.join(work, "10k.jpg")
        r = run(curl_cmd(srv.ca, srv.url("/size/n?bytes=10240"), ten_k))
        if r.returncode != 0:
            broke(f"fetching the 10 KiB image with curl failed: {r.stderr}")
            ten_k = None
        gap = small_image_latency(srv, work)

        if "1" in only:
            say("1/8 10 MiB downloads vs curl, test server and nginx ...")
            ngx = start_nginx(srv, work, install=not args.no_nginx)
            try:
                bench_ten_mib([("carillon-nse", nse)] + ([("static stdlib", static_nse)] if static_nse else []),
                              ten_mib_cases(srv, ngx), srv.ca, work, reps["big"])
            finally:
                if ngx:
                    ngx.stop()
            bench_transfer_engine(tool, srv, work, reps["big"])
        if "2" in only:
            say("2/8 pipeline overhead ...")
            bench_overhead(tool, work, reps["overhead"], ten_k)
        if "3" in only and have_time:
            say("3/8 peak RSS ...")
            bench_rss(nse, srv, work, reps["rss"], static_nse)
        if "4" in only:
            say("4/8 time-will-expire ...")
            bench_expiry(nse, tool, srv, work, reps["exp_cli"], reps["exp_in"])
        if "5" in only:
            say(f"5/8 {reps['jobs_n']} payloads, --jobs 1/4/8 vs curl --parallel, xargs -P and a curl loop ...")
            bench_jobs(nse, srv, work, reps["jobs_n"], reps["jobs_reps"])
        if "6" in only:
            say("6/8 drain ...")
            bench_drain(nse, tool, work, reps["drain"])
        if "7" in only:
            say("7/8 process --report of 1,000 payloads ...")
            bench_report(nse, srv, work, reps["report"])
        if "8" in only:
            say("8/8 upload ...")
            bench_upload(nse, work, reps["upload"])
        if "9" in only:
            say("9/9 a campaign: JSON Lines, one download per distinct image, report and summary ...")
            bench_campaign.run_rows(sys.modules[__name__], nse, srv, work, quick, install=not args.no_nginx)
        if "10" in only:
            say("10 decoding and HTTP/2 (bench_codings.py) ...")
            bench_codings.run(sys.modules[__name__], nse, srv, work, reps["big"])
        if "11" in only:
            say("11 process --record, 10 MiB ...")
            bench_record(nse, srv, work, reps["big"], have_time)
        if "12" in only or "13" in only:
            say("12/13 replay of a 10 MiB recording, and of 1,000 small ones (bench_replay.py) ...")
            if "12" in only:
                bench_replay.ten_mib(sys.modules[__name__], nse, srv, work, reps["big"])
            if "13" in only:
                bench_replay.many_small(sys.modules[__name__], nse, srv, work, reps["replay_many"])
        if "14" in only:
            say("14 merge of 8 bundles (bench_merge.py) ...")
            bench_merge.run_row(sys.modules[__name__], nse, srv, work, quick, have_time)
            if not quick:
                say("14w merge of 8 bundles of 100,000 payloads (bench_merge.py) ...")
                bench_merge.run_wide_row(sys.modules[__name__], nse, srv, work, have_time)
        if "15" in only:
            say("15 doctor of a 200 MB .ipa (bench_doctor.py) ...")
            bench_doctor.run(sys.modules[__name__], nse, work, 2 if quick else 5)
    finally:
        srv.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            say(f"work directory kept: {work}")

    print(f"carillon-nse benchmarks ({'quick' if quick else 'full'} run); medians [min–max], n = runs; "
          "the two sides alternate run by run")
    print(f"load before: {load_before}")
    print(f"load after:  {load()}")
    print(f"machine: {os.cpu_count()} cores; {run(['curl', '--version']).stdout.splitlines()[0]}")
    print_table()
    if gap is not None and gap > 30:
        NOTES.append(f"small responses take ~{gap:.0f} ms after the TLS handshake even for curl "
                     "(10 KiB over loopback): Nagle + delayed ACK — TestAssets/Server/server.py writes the "
                     "headers and the body separately without TCP_NODELAY. Rows 5 and the 10 KiB RSS run "
                     "are dominated by it; it is the server's, not the client's.")
    NOTES.append("Row 2 runs the core's own calls in a loop (TestAssets/Bench/Sources/carillon-bench): parse = "
                 "Payload + NotificationRequest; route = Routing.decide + CarillonStamp; receipt = "
                 "ReceiptStore.record; create/publish = the attachment file's open and rename as "
                 "AttachmentStore does; verify = close + ImageStreamVerifier over the image in 16 KiB pieces, "
                 "as the write callback feeds it (its VerifiedImage carries the geometry); trace = that geometry, a one-hop "
                 "DownloadTrace and its JSON as process writes it (TraceJSON). The image bytes written into the file stand for the transfer and "
                 "are not timed.")
    print("notes:")
    for n in NOTES:
        print(f"  - {n}")
    print(f"build {built - began:.0f} s, measurements {time.monotonic() - built:.0f} s")
    if ERRORS:
        print(f"{len(ERRORS)} thing(s) broke:")
        for e in ERRORS:
            print(f"  - {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
