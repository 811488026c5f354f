"""Rows 12 and 13 of the benchmark: `replay` of carillon recordings (SPEC §9, issue 31), called from bench.py.

- 12: `replay` of a 10 MiB recording made by `process --record` in this run (the body over `--record-inline`,
  in `DIR/bodies/`), whole process, against the live run it was recorded from (`process` of the same
  payload without `--record`), the sides alternating; 12i: the same recording made with the body inline
  (`--record-inline 16777216`: 14 MB of base64 in the HAR). No network, and no --ca-file: reading the HAR, the
  body (base64 or its file), the chain judged again under the trust the recording holds, the verifier.
- 13: 1,000 small recordings replayed by one `replay` invocation over their directory: four recordings
  made by `process --record` (the test server's PNG, JPEG, GIF and 10 KiB JPEG, bodies inline), each
  copied 250 times; recordings a second.
Figures only: nothing here asserts a time. `b` is bench.py's module (its helpers and table).
"""

import os
import shutil

COUNT = 1000
SMALL = ["/img/png", "/img/jpeg", "/img/gif", "/size/n?bytes=10240"]


def record(b, nse, srv, work, name, url, extra=()):
    """A recording of one payload fetching `url`: the path of its .har, or None (said) when it failed."""
    rec, att = os.path.join(work, f"rec-{name}"), os.path.join(work, "att-replay")
    shutil.rmtree(rec, ignore_errors=True)
    b.clear(att)
    payload = b.write_payload(os.path.join(work, f"{name}.json"), url)
    r = b.run([nse, "process", "--attachments", att, "--ca-file", srv.ca, "--record", rec] + list(extra) + [payload])
    lines = b.check_process(f"row 12 recording ({name})", r, "attached")
    har = os.path.join(rec, f"{name}.har")
    if lines is None or not os.path.isfile(har):
        b.broke(f"row 12: process --record wrote no {har}")
        return None
    b.empty(att)
    return har


def ratio(ours, theirs):
    return f" ({ours['median'] / theirs['median']:.2f}x)" if ours and theirs and theirs["median"] else ""


def check_replay(b, label, r, count=1):
    """Whether a replay gave `count` lines, each `attached` with a `replay` object; says so when not."""
    lines = b.check_process(label, r, "attached", count=count)
    if lines is not None and any("replay" not in line for line in lines):
        b.broke(f"{label}: a line without its replay object")
        return None
    return lines


def ten_mib(b, nse, srv, work, reps):
    """Rows 12 and 12i: replay of the 10 MiB recording (body in bodies/, and inline) against the live run."""
    url = srv.url("/size/cap")
    har = record(b, nse, srv, work, "replay-big", url)
    inline = record(b, nse, srv, work, "replay-inline", url, ["--record-inline", str(16 << 20)])
    if har is None or inline is None:
        return
    att = os.path.join(work, "att-replay")
    live_payload = b.write_payload(os.path.join(work, "replay-live.json"), url)
    cmds = {
        "live": [nse, "process", "--attachments", att, "--ca-file", srv.ca, live_payload],
        # No --ca-file: a recording holds the extra trust its run had (SPEC §9, round five).
        "replay": [nse, "replay", har],
        "inline": [nse, "replay", inline],
    }
    wall, cpu = {k: [] for k in cmds}, {k: [] for k in cmds}

    def one(kind, keep):
        b.settle()
        ms, r, cpu_ms = b.timed_cpu(cmds[kind])
        ok = (b.check_process(f"row 12 {kind}", r, "attached", b.CAP) if kind == "live"
              else check_replay(b, f"row 12 {kind}", r))
        b.empty(att)
        if ok is not None and keep:
            wall[kind].append(ms)
            cpu[kind].append(cpu_ms)

    order = list(cmds)
    for kind in order:                     # warm-up, not counted
        one(kind, False)
    for i in range(reps):
        for kind in (order if i % 2 == 0 else order[::-1]):
            one(kind, True)
    live, live_cpu = b.stats(wall["live"]), b.stats(cpu["live"])
    for kind, number, title in (("replay", "12", "replay of a 10 MiB recording (body in bodies/)"),
                                ("inline", "12i", "… the body inline (14 MB of base64 in the HAR)")):
        ours, ours_cpu = b.stats(wall[kind]), b.stats(cpu[kind])
        ok = None if not (ours and live) else ours["median"] <= 0.50 * live["median"]
        b.row(f"{number}. {title} — wall", b.fmt(ours, "ms") + ratio(ours, live),
              "live process run: " + b.fmt(live, "ms"), "<= 0.50x live", b.verdict(ok))
        b.row("   CPU user+sys", b.fmt(ours_cpu, "ms") + ratio(ours_cpu, live_cpu),
              "live: " + b.fmt(live_cpu, "ms"))


def many_small(b, nse, srv, work, reps):
    """Row 13: one `replay` over a directory of 1,000 small recordings; recordings a second."""
    hars = [record(b, nse, srv, work, f"replay-small-{i}", srv.url(path)) for i, path in enumerate(SMALL)]
    if None in hars:
        return
    many = os.path.join(work, "replay-many")
    b.clear(many)
    for i in range(COUNT):
        shutil.copyfile(hars[i % len(hars)], os.path.join(many, f"{i:04d}.har"))
    cmd = [nse, "replay", many]
    wall, cpu = [], []
    for i in range(reps + 1):
        b.settle()
        ms, r, cpu_ms = b.timed_cpu(cmd)
        if check_replay(b, "row 13 replay", r, COUNT) is not None and i > 0:   # the first is a warm-up
            wall.append(ms)
            cpu.append(cpu_ms)
    w, c = b.stats(wall), b.stats(cpu)
    rate = COUNT / (w["median"] / 1000) if w else None
    b.row(f"13. replay of {COUNT:,} small recordings, one run — wall",
          (f"{rate:,.0f} a second; " if rate else "") + b.fmt(w, "ms"),
          "CPU user+sys " + b.fmt(c, "ms"), ">= 2,000 a second", b.verdict(None if rate is None else rate >= 2000))
