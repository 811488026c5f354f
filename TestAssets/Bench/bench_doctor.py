"""Row 15 of the benchmark: `doctor` of a 200 MB .ipa (SPEC §7 and §11, issue 36), called from bench.py.

The .ipa is a healthy app (TestAssets/Apps/make_apps.py, real formats) plus one large stored asset
(`Payload/Carillon.app/Assets.car`, 200 MiB, in ZIP64 form): what an app with its media in the bundle looks
like. `doctor` must read its central directory and the few members the checks need — never the asset — in
under 2 s and 64 MiB: whole process, wall time and peak RSS (`/usr/bin/time -v`), and the bytes it read
(`strace -e trace=read,pread64`, summed), beside the file's size. Figures only: nothing here asserts a time.
`b` is bench.py's module (its helpers and table).
"""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE_APPS = os.path.join(HERE, "..", "Apps", "make_apps.py")
MEBIBYTES = 200


def bytes_read(b, cmd, work):
    """The bytes `cmd` read with read(2) and pread64(2), from strace's log; None when strace is missing."""
    log = os.path.join(work, "doctor-strace.log")
    try:
        r = b.run(["strace", "-f", "-qq", "-e", "trace=read,pread64", "-o", log] + cmd)
    except OSError:
        return None
    if r.returncode not in (0, 2):
        return None
    total = 0
    with open(log) as f:
        for line in f:
            m = re.search(r"= (\d+)$", line.strip())
            if m:
                total += int(m.group(1))
    return total


def run(b, nse, work, reps):
    """Row 15: `doctor` of the big .ipa, `reps` times after a warm-up; wall, CPU, peak RSS, bytes read."""
    made = subprocess.run([sys.executable, MAKE_APPS, work, "--big-ipa", str(MEBIBYTES)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ipa = made.stdout.strip()
    if made.returncode != 0 or not os.path.isfile(ipa):
        b.broke(f"row 15: make_apps.py --big-ipa failed: {made.stderr.strip()[:300]}")
        return
    size = os.path.getsize(ipa)
    cmd = [nse, "doctor", "--at", "2026-12-01T00:00:00Z", ipa]
    wall, cpu, rss = [], [], []
    for i in range(reps + 1):
        b.settle()
        ms, r, cpu_ms = b.timed_cpu(cmd)
        if r.returncode != 0 or '"images":{"status":"pass"' not in r.stdout:
            b.broke(f"row 15: doctor exited {r.returncode}: {r.stderr.strip()[:300]}")
            return
        if i > 0:                                            # the first is a warm-up (the file into the page cache)
            wall.append(ms)
            cpu.append(cpu_ms)
    for _ in range(max(1, reps // 2)):
        kib, r = b.peak_rss_kib(cmd, os.path.join(work, "doctor-time.txt"))
        if kib is not None and r.returncode == 0:
            rss.append(kib / 1024)
    read = bytes_read(b, cmd, work)
    w, c, m = b.stats(wall), b.stats(cpu), b.stats(rss)
    ok = None if not (w and m) else w["median"] < 2000 and m["max"] < 64
    b.row(f"15. doctor of a {size / 1e6:.0f} MB .ipa (a {MEBIBYTES} MiB stored asset) — wall", b.fmt(w, "ms"),
          "CPU user+sys " + b.fmt(c, "ms"), "< 2 s, < 64 MiB", b.verdict(ok))
    b.row("    peak RSS", b.fmt(m, "MiB"),
          "bytes read: " + (f"{read:,} of {size:,}" if read is not None else "n/a (no strace)"))
    os.remove(ipa)
