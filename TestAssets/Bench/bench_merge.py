"""Row 14 of the benchmark: `merge` of a campaign's result bundles (SPEC §6c, §7 fifth round), called from
bench.py (`bench_merge.run_row(...)`), with bench.py's helpers through the module passed in.

- 14: a campaign of PAYLOADS payloads (JSON Lines) over IMAGES distinct images of the test server, run as
  8 shards (`process --shard K/8 --shard-by image --jobs 8 --bundle`), then `merge` of the 8 bundles
  writing the lines (`--lines`), the summary and the report, whole process: wall time and peak RSS (GNU
  time). 14j: the same merge printing JUnit instead. Checked: the merged lines are PAYLOADS, in input
  order, as many attached as the shards attached.
- 14w (full runs only): SPEC §7's other reading, 8 bundles of 100,000 payloads each: a campaign of 800,000
  payloads over the same images run as 8 shards by position, then the same merge (lines, summary, report).
Figures only: nothing here asserts a time.
"""
import json
import os
import re
import subprocess
import time

from bench_campaign import write_campaign

SHARDS = 8


def run_row(b, nse, srv, work, quick, have_time):
    """Adds rows 14 and 14j to bench.py's table (`b` is the bench module)."""
    payloads = 10_000 if quick else 100_000
    images = 100 if quick else 1_000
    reps = 1 if quick else 3
    mwork = os.path.join(work, "merge")
    os.makedirs(mwork, exist_ok=True)
    campaign = os.path.join(mwork, "campaign.jsonl")
    write_campaign(campaign, [srv.url(f"/img/png?i={i}") for i in range(images)], payloads)
    bundles = [os.path.join(mwork, f"{k}.bundle") for k in range(SHARDS)]
    attached = 0
    for k, bundle in enumerate(bundles):
        r = b.run([nse, "process", "--jobs", "8", "--ca-file", srv.ca, "--shard", f"{k}/{SHARDS}", "--shard-by", "image",
                   "--bundle", bundle, campaign])
        if r.returncode != 0 or not os.path.isfile(bundle):
            b.broke(f"row 14: shard {k}/{SHARDS} exited {r.returncode}: {r.stderr[-300:]}")
            return
        attached += r.stdout.count('"reason":"attached"')
    size = sum(os.path.getsize(p) for p in bundles)
    lines = os.path.join(mwork, "lines.jsonl")
    outputs = ["--lines", lines, "--summary", os.path.join(mwork, "summary.json"), "--report", os.path.join(mwork, "report.html")]
    junit = os.path.join(mwork, "junit.xml")
    for label, extra in (("14", outputs), ("14j", ["--format", "junit"])):
        walls, peaks = [], []
        for _ in range(reps):
            b.settle()
            cmd = [nse, "merge"] + extra + bundles
            if have_time:
                ms, (kib, r) = timed_rss(b, cmd, os.path.join(mwork, "time.txt"), junit if label == "14j" else None)
                peaks.append(kib / 1024 if kib else None)
            else:
                ms, r = b.timed(cmd)
            if r.returncode != 0:
                b.broke(f"row {label}: merge exited {r.returncode}: {r.stderr[-300:]}")
                return
            walls.append(ms)
        if label == "14" and not check_lines(b, lines, payloads, attached):
            return
        wall = b.stats([w / 1000 for w in walls])
        peak = b.stats([p for p in peaks if p is not None])
        ok = wall is not None and wall["median"] < 10 and (peak is None or peak["median"] < 256)
        what = "lines, summary and report" if label == "14" else "JUnit"
        b.row(f"{label} merge of {SHARDS} bundles, {payloads:,} payloads, {images:,} images ({what})",
              f"{b.fmt(wall, 's', 2)}; peak RSS {b.fmt(peak, 'MiB')}", f"bundles {size / 1e6:.1f} MB",
              "< 10 s, < 256 MiB" if not quick else "(quick: 10,000 payloads)", b.verdict(ok))


def run_wide_row(b, nse, srv, work, have_time):
    """Row 14w: 8 bundles of 100,000 payloads each (800,000 in all), merged once (whole process, GNU time)."""
    payloads, images = SHARDS * 100_000, 1_000
    mwork = os.path.join(work, "merge-wide")
    os.makedirs(mwork, exist_ok=True)
    campaign = os.path.join(mwork, "campaign.jsonl")
    write_campaign(campaign, [srv.url(f"/img/png?i={i}") for i in range(images)], payloads)
    bundles = [os.path.join(mwork, f"{k}.bundle") for k in range(SHARDS)]
    attached = 0
    for k, bundle in enumerate(bundles):
        with open(os.devnull, "w") as out:
            r = subprocess.run([nse, "process", "--jobs", "8", "--ca-file", srv.ca, "--shard", f"{k}/{SHARDS}", "--bundle",
                                bundle, campaign], env=b.ENV, stdout=out, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 or not os.path.isfile(bundle):
            b.broke(f"row 14w: shard {k}/{SHARDS} exited {r.returncode}: {r.stderr[-300:]}")
            return
    size = sum(os.path.getsize(p) for p in bundles)
    lines = os.path.join(mwork, "lines.jsonl")
    cmd = [nse, "merge", "--lines", lines, "--summary", os.path.join(mwork, "summary.json"), "--report",
           os.path.join(mwork, "report.html")] + bundles
    b.settle()
    if have_time:
        ms, (kib, r) = timed_rss(b, cmd, os.path.join(mwork, "time.txt"))
    else:
        (ms, r), kib = b.timed(cmd), None
    if r.returncode != 0:
        b.broke(f"row 14w: merge exited {r.returncode}: {r.stderr[-300:]}")
        return
    with open(lines) as f:
        for line in f:
            attached += '"reason":"attached"' in line
    if not check_lines(b, lines, payloads, attached):
        return
    ok = ms / 1000 < 10 and (kib is None or kib / 1024 < 256)
    peak = f"{kib / 1024:.1f} MiB" if kib else "-"
    b.row(f"14w merge of {SHARDS} bundles of 100,000 payloads ({payloads:,}, {images:,} images; lines, summary, report)",
          f"{ms / 1000:.2f} s; peak RSS {peak}", f"bundles {size / 1e6:.1f} MB", "< 10 s, < 256 MiB", b.verdict(ok))
    for path in bundles + [campaign, lines]:
        os.remove(path)


def timed_rss(b, cmd, time_file, stdout_file=None):
    """Wall ms, peak RSS KiB (GNU time) and the result of cmd; its standard output to stdout_file when given."""
    start = time.perf_counter_ns()
    with open(stdout_file or os.devnull, "w") as out:
        r = subprocess.run([b.GNU_TIME, "-v", "-o", time_file] + cmd, env=b.ENV, stdout=out, stderr=subprocess.PIPE, text=True)
    ms = (time.perf_counter_ns() - start) / 1e6
    with open(time_file) as f:
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", f.read())
    return ms, ((int(m.group(1)) if m else None), r)


def check_lines(b, path, payloads, attached):
    """The merged lines: every payload once, in input order, as many attached as the shards said."""
    count, merged_attached, previous = 0, 0, 0
    with open(path) as f:
        for line in f:
            count += 1
            name = json.loads(line)["payload"]
            number = int(name.rsplit(":", 1)[1])
            if number <= previous:
                b.broke(f"row 14: merged line {count} ({name}) is not after line {previous}")
                return False
            previous = number
            merged_attached += '"reason":"attached"' in line
    if count != payloads or merged_attached != attached:
        b.broke(f"row 14: {count} merged lines ({merged_attached} attached), expected {payloads} ({attached})")
        return False
    return True
