"""Row 3's breakdown: what a process has mapped and touched at its exit, by mapping, from /proc/PID/smaps.

`capture_at_exit` runs a program (carillon-nse or curl) under gdb, stopped at its `exit_group` system call
(after any atexit handlers, with everything still mapped), and copies /proc/PID/status, smaps_rollup and
smaps. (carillon-nse used to write the same three files itself when CARILLON_SMAPS_DUMP named a file; the
executable no longer carries benchmark code: the two methods agreed within 84 KiB of 16.6 MiB.) Either way the figures are those of the last instant of the process; the peak
(VmHWM, what /usr/bin/time reports) comes with them, and what was freed and given back before the exit is the
difference.
"""

import os
import re
import shutil
import subprocess

# The groups of the table, in its order: a mapping's path (or kind) decides its group.
GROUPS = ["binary: code (r-x)", "binary: read-only (r--)", "binary: data (rw-)", "swift-runtime (shared)", "libcurl",
          "libssl+libcrypto", "libcurl's dependencies", "libc+ld.so", "libstdc++/libm/libgcc", "other files", "heap",
          "stacks", "anon (bss, arenas)", "kernel (vdso, vvar)"]

_HEADER = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$")


def group_of(path, binary_name, perms="r--p"):
    base = os.path.basename(path)
    if path == "[heap]":
        return "heap"
    if path.startswith("[stack") or path == "[anon:stack]":
        return "stacks"
    if path in ("[vdso]", "[vvar]", "[vsyscall]", "[vvar_vclock]"):
        return "kernel (vdso, vvar)"
    if not path or path.startswith("[anon"):
        return "anon (bss, arenas)"
    if base == binary_name:
        if "x" in perms:
            return "binary: code (r-x)"
        return "binary: data (rw-)" if "w" in perms else "binary: read-only (r--)"
    if base.startswith("libswift") or base.startswith("libFoundation") or base.startswith("libdispatch") \
            or base.startswith("libBlocksRuntime") or base.startswith("libicu"):
        return "swift-runtime (shared)"
    if base.startswith("libcurl"):
        return "libcurl"
    if base.startswith("libssl") or base.startswith("libcrypto"):
        return "libssl+libcrypto"
    if base.startswith(("libc.so", "ld-linux")):
        return "libc+ld.so"
    if base.startswith(("libstdc++", "libm.so", "libgcc_s")):
        return "libstdc++/libm/libgcc"
    if base.startswith("lib") and ".so" in base:
        return "libcurl's dependencies"
    return "other files"


def parse(text):
    """The three sections of a dump: {'status': {...}, 'rollup': {...}, 'mappings': [...]}, sizes in KiB."""
    sections, name = {}, None
    for line in text.splitlines():
        m = re.match(r"^==> /proc/(?:self|\d+)/(\S+) <==$", line)
        if m:
            name = m.group(1)
            sections[name] = []
        elif name:
            sections[name].append(line)
    status = {}
    for line in sections.get("status", []):
        m = re.match(r"^(Vm\w+|Rss\w+|Threads):\s+(\d+)", line)
        if m:
            status[m.group(1)] = int(m.group(2))
    rollup = {}
    for line in sections.get("smaps_rollup", []):
        m = re.match(r"^(\w+):\s+(\d+) kB", line)
        if m:
            rollup[m.group(1)] = int(m.group(2))
    mappings, current = [], None
    for line in sections.get("smaps", []):
        h = _HEADER.match(line)
        if h:
            current = {"start": int(h.group(1), 16), "end": int(h.group(2), 16), "perms": h.group(3),
                       "path": h.group(4).strip()}
            mappings.append(current)
            continue
        m = re.match(r"^(\w+):\s+(\d+) kB", line)
        if m and current is not None:
            current[m.group(1)] = int(m.group(2))
    return {"status": status, "rollup": rollup, "mappings": mappings}


def mark_thread_stacks(mappings):
    """Thread stacks are anonymous rw mappings right above a guard page (---p); named so in the table."""
    for before, after in zip(mappings, mappings[1:]):
        if before["perms"] == "---p" and not before["path"] and after["perms"].startswith("rw") \
                and not after["path"] and before["end"] == after["start"] and after["end"] - after["start"] >= 1 << 20:
            after["path"] = "[anon:stack]"


def breakdown(dump, binary_name):
    """{group: {'size','rss','pss','clean','dirty'}} (KiB) and totals."""
    mappings = dump["mappings"]
    mark_thread_stacks(mappings)
    table = {g: {"size": 0, "rss": 0, "pss": 0, "clean": 0, "dirty": 0} for g in GROUPS}
    for m in mappings:
        g = table[group_of(m["path"], binary_name, m["perms"])]
        g["size"] += m.get("Size", 0)
        g["rss"] += m.get("Rss", 0)
        g["pss"] += m.get("Pss", 0)
        g["clean"] += m.get("Shared_Clean", 0) + m.get("Private_Clean", 0)
        g["dirty"] += m.get("Shared_Dirty", 0) + m.get("Private_Dirty", 0)
    return table


def read_dump(path):
    with open(path, errors="replace") as f:
        return parse(f.read())


_GDB_SCRIPT = """\
set pagination off
set confirm off
set startup-with-shell off
set auto-load safe-path /nonexistent
catch syscall exit_group
run
python
import gdb
pid = gdb.selected_inferior().pid
with open({out!r}, "w") as out:
    for name in ("status", "smaps_rollup", "smaps"):
        out.write(f"==> /proc/{{pid}}/{{name}} <==\\n")
        with open(f"/proc/{{pid}}/{{name}}") as f:
            out.write(f.read())
end
kill
quit
"""


def capture_at_exit(cmd, dump_path, env):
    """Runs any program under gdb, stopped at exit_group; returns the parsed dump, or None without gdb.
    gdb's breakpoint in ld.so's debugger hook makes one page of ld.so private (4 KiB); gdb also turns address
    randomisation off, which changes no sizes."""
    gdb = shutil.which("gdb")
    if not gdb:
        return None
    script = dump_path + ".gdb"
    with open(script, "w") as f:
        f.write(_GDB_SCRIPT.format(out=dump_path))
    if os.path.exists(dump_path):
        os.unlink(dump_path)
    subprocess.run([gdb, "-nx", "-batch", "-x", script, "--args"] + cmd, env=env, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True, timeout=120)
    return read_dump(dump_path) if os.path.exists(dump_path) else None


def table_lines(sides):
    """sides: [(label, dump, binary_name)]; lines of a side-by-side table, Rss / Pss in KiB per group."""
    tables = [(label, breakdown(dump, name)) for label, dump, name in sides]
    head = f"    {'mapping':<24}" + "".join(f"{label + ' Rss / Pss (clean+dirty)':>40}" for label, _ in tables)
    lines = [head]
    for g in GROUPS:
        cells = []
        for _, t in tables:
            c = t[g]
            cells.append(f"{c['rss']:>8} / {c['pss']:>6} ({c['clean']}+{c['dirty']})")
        if any(t[g]["rss"] for _, t in tables):
            lines.append(f"    {g:<24}" + "".join(f"{cell:>40}" for cell in cells))
    totals = []
    for (_, dump, _), (_, t) in zip(sides, tables):
        rss = sum(c["rss"] for c in t.values())
        pss = sum(c["pss"] for c in t.values())
        totals.append(f"{rss:>8} / {pss:>6}, peak {dump['status'].get('VmHWM', 0)}")
    lines.append(f"    {'total KiB (at exit)':<24}" + "".join(f"{cell:>40}" for cell in totals))
    return lines
