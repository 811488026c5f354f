"""Row 10 of the benchmark: decoding and HTTP/2 (SPEC §7, third round), called from bench.py.

- 10g: a gzip-encoded 10 MiB image from the test server, `carillon-nse process` against `curl --compressed`;
- 10b: the 64 MiB gzip bomb (about 64 KiB on the wire): carillon-nse stops at the 10 MiB cap
  (`too-large`); wall, CPU and peak RSS against `curl --compressed`, which inflates all of it (its
  `--max-filesize` counts the encoded bytes);
- 10h, 10hg: 10 MiB over HTTP/2 from nginx (`http2`), against `curl --http2`; and gzip-encoded by nginx's own
  `gzip on`, against `curl --http2 --compressed`.
Figures only: nothing here asserts a time. `b` is bench.py's module (its helpers and table).
"""

import os

BOMB = 64 * 1024 * 1024

GZIP_LOCATION = "location /gz/ { gzip on; gzip_types image/png; gzip_min_length 1; }"


def compare(b, number, title, nse, ca, url, curl_extra, work, reps, expect_reason, expect_bytes, curl_bytes):
    """One row pair: wall and CPU (and peak RSS once each) of `process` against curl with `curl_extra`."""
    att = os.path.join(work, "att-codings")
    out = os.path.join(work, "curl-codings")
    for d in (att, out):
        b.clear(d)
    payload = os.path.join(work, "codings.json")
    wall, cpu = {"nse": [], "curl": []}, {"nse": [], "curl": []}

    def one_nse():
        b.write_payload(payload, url)
        ms, r, cpu_ms = b.timed_cpu([nse, "process", "--attachments", att, "--ca-file", ca, payload])
        lines = b.check_process(f"row {number} process", r, expect_reason, expect_bytes)
        b.empty(att)
        return (ms, cpu_ms) if lines else None

    def one_curl():
        target = os.path.join(out, "image")
        cmd = b.curl_cmd(ca, url, target)
        cmd[1:1] = curl_extra
        ms, r, cpu_ms = b.timed_cpu(cmd)
        size = os.path.getsize(target) if os.path.exists(target) else -1
        if r.returncode != 0 or size != curl_bytes:
            b.broke(f"row {number} curl: exit {r.returncode}, {size} bytes {r.stderr[-200:]}")
            return None
        os.unlink(target)
        return ms, cpu_ms

    runners = [("nse", one_nse), ("curl", one_curl)]
    for _, fn in runners:             # warm-up, not counted
        fn()
    for i in range(reps):
        order = runners if i % 2 == 0 else runners[::-1]
        for label, fn in order:
            got = fn()
            if got:
                wall[label].append(got[0])
                cpu[label].append(got[1])
    a_wall, c_wall = b.stats(wall["nse"]), b.stats(wall["curl"])
    a_cpu, c_cpu = b.stats(cpu["nse"]), b.stats(cpu["curl"])
    ok_wall = None if not (a_wall and c_wall) else a_wall["median"] <= c_wall["median"]
    ok_cpu = None if not (a_cpu and c_cpu) else a_cpu["median"] <= c_cpu["median"]
    reference = "curl " + " ".join(curl_extra)
    b.row(f"{number}. {title} — wall", b.fmt(a_wall, "ms") + b.ratio_text(a_wall, c_wall), f"{reference}: " + b.fmt(c_wall, "ms"),
          "<= 1.00x curl", b.verdict(ok_wall))
    b.row("   CPU user+sys", b.fmt(a_cpu, "ms") + b.ratio_text(a_cpu, c_cpu), f"{reference}: " + b.fmt(c_cpu, "ms"),
          "<= 1.00x curl", b.verdict(ok_cpu))
    b.write_payload(payload, url)
    ours, r = b.peak_rss_kib([nse, "process", "--attachments", att, "--ca-file", ca, payload], os.path.join(work, "rss-n"))
    b.empty(att)
    target = os.path.join(out, "image")
    cmd = b.curl_cmd(ca, url, target)
    cmd[1:1] = curl_extra
    theirs, _ = b.peak_rss_kib(cmd, os.path.join(work, "rss-c"))
    if os.path.exists(target):
        os.unlink(target)
    return ours, theirs


def run(b, nse, srv, work, reps):
    """Rows 10g, 10b, 10h, 10hg."""
    cap = b.CAP
    b.SRV_CA = srv.ca
    ours, theirs = compare(b, "10g", "gzip-encoded 10 MiB PNG (test server)", nse, srv.ca,
                           srv.url(f"/enc/gzip-size?bytes={cap}"), ["--compressed"], work, reps, "attached", cap, cap)
    b.row("   peak RSS", f"{ours} KiB" if ours else "n/a", f"curl --compressed: {theirs} KiB" if theirs else "n/a",
          "(figure)", "")
    ours, theirs = compare(b, "10b", "64 MiB gzip bomb: stopped at the cap", nse, srv.ca, srv.url("/enc/gzip-bomb"),
                           ["--compressed"], work, reps, "too-large", None, BOMB)
    ok = None if ours is None else ours < 24 * 1024
    b.row("   peak RSS", f"{ours} KiB" if ours else "n/a",
          f"curl --compressed (inflates all 64 MiB): {theirs} KiB" if theirs else "n/a", "< 24 MiB", b.verdict(ok))
    png = os.path.join(work, "codings-big.png")
    r = b.run(b.curl_cmd(srv.ca, srv.url(f"/size/png?bytes={cap}"), png))
    if r.returncode != 0 or os.path.getsize(png) != cap:
        b.broke(f"row 10h: fetching the 10 MiB PNG from the test server failed: {r.stderr[-200:]}")
        return
    ngx, why = b.Nginx.start(work, srv.ca, {"/big.png": png, "/gz/big.png": png}, False, b.say, name="nginx-h2",
                             http2=True, locations=[GZIP_LOCATION])
    if not ngx:
        b.NOTES.append(f"rows 10h/10hg were not run: {why}.")
        return
    try:
        base = ngx.url("")
        compare(b, "10h", "10 MiB PNG over HTTP/2 (nginx)", nse, srv.ca, base + "/big.png", ["--http2"], work, reps,
                "attached", cap, cap)
        compare(b, "10hg", "gzip 10 MiB PNG over HTTP/2 (nginx gzip on)", nse, srv.ca, base + "/gz/big.png",
                ["--http2", "--compressed"], work, reps, "attached", cap, cap)
        b.NOTES.append(f"rows 10h/10hg: nginx with http2 on {base} (nginx.py's, sendfile), started and stopped by the "
                       "benchmark; both sides negotiate HTTP/2 by ALPN.")
    finally:
        ngx.stop()
