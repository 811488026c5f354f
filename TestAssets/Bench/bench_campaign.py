"""Row 9 of the benchmark (SPEC §7, campaigns §6a): a campaign checked against curl fetching only its
distinct images, payloads without images from JSON Lines, and the report and summary of a campaign.

Called from bench.py (`bench_campaign.run_rows(...)`); it uses bench.py's helpers through the module
passed in, so that it shares the table, the notes and the clean environment.

- 9a. PAYLOADS payloads (JSON Lines) over IMAGES distinct images served by nginx on loopback,
  `--jobs 8`, no container, against `xargs -P 8 curl` and one `curl --parallel --parallel-max 8`
  fetching only the distinct images; peak RSS with GNU time.
- 9b. PAYLOADS payloads without an image, JSON Lines in: payloads a second.
- 9c. --report and --summary of the 9a campaign (of 9b's without nginx): the time the tool says it
  took to write them, and the report's size.
Figures are printed, never asserted.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import time


def write_campaign(path, urls, count, with_image=True):
    """JSON Lines: `count` payloads, payload i naming urls[i % len(urls)] (or no image)."""
    with open(path, "w") as f:
        for i in range(count):
            carillon = {"delivery_id": f"01937b21-0000-7000-8000-{i:012x}"}
            if with_image:
                carillon["image"] = urls[i % len(urls)]
            f.write(json.dumps({"aps": {"alert": {"title": "Sale", "body": f"Recipient {i}"}, "mutable-content": 1},
                                "carillon": carillon}, separators=(",", ":")) + "\n")


def timed_to_file(b, cmd, out_path):
    """Wall ms of cmd with stdout to a file (100,000 lines are not for a pipe into Python), and the result."""
    with open(out_path, "w") as out:
        start = time.perf_counter_ns()
        r = subprocess.run(cmd, env=b.ENV, stdout=out, stderr=subprocess.PIPE, text=True)
        return (time.perf_counter_ns() - start) / 1e6, r


def count_reasons(path):
    reasons = {}
    with open(path) as f:
        for line in f:
            m = re.search(r'"reason":"([a-z-]+)"', line)
            reasons[m.group(1) if m else "?"] = reasons.get(m.group(1) if m else "?", 0) + 1
    return reasons


def median(values):
    return statistics.median(values) if values else None


def run_rows(b, nse, srv, work, quick, install):
    """Adds rows 9a–9c to bench.py's table (`b` is the bench module)."""
    payloads = 10_000 if quick else 100_000
    images = 100 if quick else 1_000
    reps = 1 if quick else 3
    cwork = os.path.join(work, "campaign")
    os.makedirs(cwork, exist_ok=True)
    os.chmod(work, 0o711)    # nginx's worker (nobody) passes through to cwork/nginx/root

    # nginx serves `images` distinct URLs (the same small PNG under each name: one verified download each).
    png = os.path.join(cwork, "banner.png")
    r = b.run(b.curl_cmd(srv.ca, srv.url("/img/png"), png))
    if r.returncode != 0:
        b.broke(f"row 9: fetching /img/png from the test server failed: {r.stderr[-200:]}")
        return
    files = {f"/c/{i:04d}.png": png for i in range(images)}
    ngx, why = b.Nginx.start(cwork, srv.ca, files, install, b.say)
    if ngx is None:
        b.NOTES.append(f"row 9a was not run: {why}.")
    try:
        if ngx:
            campaign_rows(b, nse, ngx, srv.ca, cwork, payloads, images, reps)
            report_rows(b, nse, cwork, os.path.join(cwork, "campaign.jsonl"), payloads, reps,
                        ["--jobs", "8", "--ca-file", srv.ca], f"{images} images")
    finally:
        if ngx:
            ngx.stop()
    no_image_rows(b, nse, cwork, payloads, reps)
    if not ngx:
        report_rows(b, nse, cwork, os.path.join(cwork, "no-image.jsonl"), payloads, reps, [], "no image")


def campaign_rows(b, nse, ngx, ca, cwork, payloads, images, reps):
    urls = [ngx.url(f"/c/{i:04d}.png") for i in range(images)]
    campaign = os.path.join(cwork, "campaign.jsonl")
    write_campaign(campaign, urls, payloads)
    out = os.path.join(cwork, "curl-out")
    pairs = os.path.join(cwork, "pairs.txt")
    with open(pairs, "w") as f:
        f.writelines(f"{out}/{i} {u}\n" for i, u in enumerate(urls))
    config = os.path.join(cwork, "parallel.conf")
    with open(config, "w") as f:
        f.writelines(f'url = "{u}"\noutput = "{out}/{i}"\n' for i, u in enumerate(urls))
    att = os.path.join(cwork, "att")
    lines = os.path.join(cwork, "lines.jsonl")
    # Row 9d's peers: the same payloads without images, and the run's own TMPDIR (it must stay empty).
    no_image = os.path.join(cwork, "campaign-no-image.jsonl")
    write_campaign(no_image, [], payloads, with_image=False)
    tmpdir = os.path.join(cwork, "tmpdir")
    kinds = ["ours", "none", "noimage", "xargs", "parallel"]
    wall = {k: [] for k in kinds}
    rss = []
    for i in range(reps):
        for kind in kinds[i % len(kinds):] + kinds[:i % len(kinds)]:
            b.clear(out)
            shutil.rmtree(att, ignore_errors=True)
            shutil.rmtree(tmpdir, ignore_errors=True)
            os.makedirs(tmpdir)
            b.settle()
            if kind in ("ours", "none", "noimage"):
                keep = ["--attachments", att] if kind == "ours" else []
                source = no_image if kind == "noimage" else campaign
                cmd = ["env", f"TMPDIR={tmpdir}", nse, "process", "--jobs", "8"] + keep + ["--ca-file", ca, source]
                ms, r = timed_to_file(b, cmd, lines)
                reasons = count_reasons(lines)
                expected = {"no-image": payloads} if kind == "noimage" else {"attached": payloads}
                if r.returncode != 0 or reasons != expected or os.listdir(tmpdir):
                    b.broke(f"row 9a/9d {kind}: exit {r.returncode}, {reasons}, TMPDIR {os.listdir(tmpdir)[:3]}; "
                            f"{r.stderr[-300:]}")
                    continue
            elif kind == "xargs":
                ms, r = b.timed(["xargs", "-P", "8", "-n", "2", "-a", pairs, "curl"] + b.curl_safety(ca) + ["-o"])
            else:
                ms, r = b.timed(["curl"] + b.curl_safety(ca) + ["--parallel", "--parallel-max", "8", "-K", config])
            if kind in ("xargs", "parallel") and (r.returncode != 0 or len(os.listdir(out)) != images):
                b.broke(f"row 9a {kind}: exit {r.returncode}, {len(os.listdir(out))} files; {r.stderr[-200:]}")
                continue
            wall[kind].append(ms)
    # Peak RSS in a run of its own (GNU time's own cost stays out of the timed runs).
    shutil.rmtree(att, ignore_errors=True)
    kib, r = b.peak_rss_kib([nse, "process", "--jobs", "8", "--attachments", att, "--ca-file", ca, "--summary",
                             os.path.join(cwork, "summary.json"), campaign], os.path.join(cwork, "rss.txt"))
    if kib:
        rss.append(kib / 1024)
    ours, xargs, parallel = median(wall["ours"]), median(wall["xargs"]), median(wall["parallel"])
    rx = ours / xargs if ours and xargs else None
    rp = ours / parallel if ours and parallel else None
    label = f"9a. {payloads} payloads, {images} images, --jobs 8"
    b.row(label, b.fmt(b.stats(wall["ours"]), "ms", 0) + (f"; {rx:.2f}x xargs" if rx else ""),
          f"xargs -P 8 curl ({images} URLs): {b.fmt(b.stats(wall['xargs']), 'ms', 0)}",
          "≤ 1.00× xargs -P 8 curl", b.verdict(None if rx is None else rx <= 1.0))
    b.row("9a. the same, against one curl", (f"{rp:.2f}x curl --parallel" if rp else "n/a"),
          f"curl --parallel --parallel-max 8: {b.fmt(b.stats(wall['parallel']), 'ms', 0)}",
          "≤ 3.00× curl --parallel 8", b.verdict(None if rp is None else rp <= 3.0))
    b.row("9a. peak RSS of that run", f"{rss[0]:.1f} MiB" if rss else "n/a", "", "< 64 MiB",
          b.verdict(rss[0] < 64 if rss else None))
    # 9d: without --attachments (issue 30: no file per payload, nothing left in TMPDIR), against the sum
    # of the same payloads without images and one curl --parallel fetching the distinct images, measured
    # in the same run; 9a (--attachments, a hard link per payload) is beside it.
    none, noimage = median(wall["none"]), median(wall["noimage"])
    rn = none / (noimage + parallel) if none and noimage and parallel else None
    b.row(f"9d. {payloads} payloads, {images} images, --jobs 8, no --attachments",
          b.fmt(b.stats(wall["none"]), "ms", 0) + (f"; {rn:.2f}x" if rn else "")
          + (f" (--attachments: {ours / (noimage + parallel):.2f}x)" if ours and noimage and parallel else ""),
          f"no images {b.fmt(b.stats(wall['noimage']), 'ms', 0)} + curl --parallel-max 8 "
          f"{b.fmt(b.stats(wall['parallel']), 'ms', 0)}",
          "≤ 1.25× (no images + curl --parallel 8)", b.verdict(None if rn is None else rn <= 1.25))
    b.NOTES.append(f"Row 9a: nginx serves {images} URLs (one small PNG under each name); carillon-nse reads "
                   f"{payloads} JSON Lines payloads and fetches each distinct image once (with --attachments, "
                   "attachment files are hard links; without, 9d, no file per payload and TMPDIR is checked empty "
                   "after each run); the curl peers fetch only the distinct images.")


def no_image_rows(b, nse, cwork, payloads, reps):
    campaign = os.path.join(cwork, "no-image.jsonl")
    write_campaign(campaign, [], payloads, with_image=False)
    lines = os.path.join(cwork, "no-image-lines.jsonl")
    att = os.path.join(cwork, "att-none")
    wall = []
    for _ in range(reps):
        ms, r = timed_to_file(b, [nse, "process", "--attachments", att, campaign], lines)
        if r.returncode != 0:
            b.broke(f"row 9b: exit {r.returncode}; {r.stderr[-300:]}")
            continue
        wall.append(ms)
    rate = payloads / (median(wall) / 1000) if wall else None
    b.row(f"9b. {payloads} payloads, no image, JSON Lines", b.fmt(b.stats(wall), "ms", 0)
          + (f"; {rate:,.0f} payloads/s" if rate else ""), "", "≥ 100,000 payloads/s",
          b.verdict(None if rate is None else rate >= 100_000))


def report_rows(b, nse, cwork, campaign, payloads, reps, extra, what):
    """Row 9c: --report and --summary of a whole campaign, as the tool times its own writes."""
    lines = os.path.join(cwork, "report-lines.jsonl")
    att = os.path.join(cwork, "att-report")
    report, summary = os.path.join(cwork, "report.html"), os.path.join(cwork, "summary.json")
    report_ms, summary_ms, size = [], [], None
    for _ in range(reps):
        shutil.rmtree(att, ignore_errors=True)
        ms, r = timed_to_file(b, [nse, "process", "--attachments", att, "--report", report, "--summary", summary]
                              + extra + [campaign], lines)
        m = re.search(r"report: .*?, (\d+) bytes, written in ([0-9.]+) ms", r.stderr)
        s = re.search(r"campaign summary: .*?written in ([0-9.]+) ms", r.stderr)
        if r.returncode != 0 or not m or not s:
            b.broke(f"row 9c: exit {r.returncode}; {r.stderr[-300:]}")
            continue
        size = int(m.group(1))
        report_ms.append(float(m.group(2)))
        summary_ms.append(float(s.group(1)))
    ok = None
    if report_ms and size is not None:
        ok = median(report_ms) + median(summary_ms) < 2000 and size < 10_000_000
    b.row(f"9c. --report and --summary of {payloads}, {what}", f"report {b.fmt(b.stats(report_ms), 'ms', 0)}, "
          f"{(size or 0) / 1e6:.2f} MB; summary {b.fmt(b.stats(summary_ms), 'ms', 1)}", "",
          "< 2 s, report < 10 MB", b.verdict(ok))
