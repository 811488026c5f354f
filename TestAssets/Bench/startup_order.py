#!/usr/bin/env python3
"""Writes Sources/carillon-nse/startup.order: the functions of carillon-nse that its common runs execute.

The release link (Package.swift) hands the file to lld (`--symbol-ordering-file`), which lays those
functions out together at the start of the executable's code. The kernel maps a file's pages 64 KiB at a
time around each one touched (fault-around), so code spread over the whole 6 MiB of the statically linked
Swift runtime counts almost all of it in a run's resident memory; packed together it counts a third as
much (TestAssets/Bench/README.md, "Measurements behind the code").

    TestAssets/Bench/startup_order.py [--scratch-path DIR] [--output FILE]

Builds release, starts the local HTTPS test server, runs carillon-nse under valgrind's callgrind
(`--demangle=no`) for `--version`, `--help`, `process` of small JPEG/PNG/GIF images, a 10 MiB PNG and
JPEG, a redirect and refusals, with a container, in JSON and text, the same with `--record`, then `drain`
and `batches`, and writes every function callgrind saw run in the executable, once each, in the order first
seen. Run it again after a change that moves a lot of code (a new Swift toolchain, a large refactor,
merging branches that moved files): a stale file only costs memory. Standard library only; nothing
leaves 127.0.0.1.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import bench

OUTPUT = os.path.join(bench.ROOT, "Sources", "carillon-nse", "startup.order")


def executed_functions(callgrind_file, executable):
    """The names of the functions callgrind saw run in `executable`, in the order they appear."""
    objects, functions, current, names = {}, {}, None, []
    object_line = re.compile(r"^(c?ob)=\((\d+)\)(?: (.*))?$")
    function_line = re.compile(r"^(c?fn)=\((\d+)\)(?: (.*))?$")
    real = os.path.realpath(executable)
    with open(callgrind_file, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = object_line.match(line)
            if m:
                kind, number, name = m.groups()
                if name:
                    objects[number] = name
                if kind == "ob":
                    current = objects.get(number)
                continue
            m = function_line.match(line)
            if m:
                kind, number, name = m.groups()
                if name:
                    functions[number] = name     # a name is given once, in whichever line uses it first
                if kind == "cfn":
                    continue
                name = functions.get(number, "")
                if current and os.path.realpath(current) == real and name and not name.startswith("0x"):
                    names.append(re.sub(r"'\d+$", "", name))     # callgrind marks recursion levels as 'N
    return names


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scratch-path", default="/tmp/build-startup-order")
    ap.add_argument("--output", default=OUTPUT)
    args = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        bench.say("valgrind is not installed (apt-get install valgrind)")
        return 1
    if not bench.build(args.scratch_path, bench.ROOT, "carillon-nse"):
        return 1
    nse = os.path.join(args.scratch_path, "release", "carillon-nse")
    work = tempfile.mkdtemp(prefix="carillon-startup-order-")
    srv = bench.Server(work)
    try:
        payloads = os.path.join(work, "payloads")
        os.makedirs(payloads)
        for n, path in enumerate(["/img/jpeg", "/img/png", "/img/gif", "/img/gif-animated", "/size/cap",
                                  f"/size/png?bytes={bench.CAP}", "/redirect/relative", "/bad/webp",
                                  "/bad/status-404-large", "/size/cap-plus-1"]):
            bench.write_payload(os.path.join(payloads, f"{n:02d}.json"), srv.url(path))
        container, queue = os.path.join(work, "container"), os.path.join(work, "queue")
        common = ["--container", container, "--ca-file", srv.ca]
        runs = [
            ["--version"],
            ["--help"],
            ["process", "--help"],
            ["process", "--attachments", os.path.join(work, "att")] + common + [payloads],
            ["process", "--format", "text", "--attachments", os.path.join(work, "att")] + common + [payloads],
            # A recording (row 11): the tap, the digest's thread, the HAR writer and its redaction.
            ["process", "--attachments", os.path.join(work, "att"), "--record", os.path.join(work, "rec"), "--ca-file", srv.ca,
             payloads],
            ["drain", "--container", container, "--queue", queue],
            ["batches", "--queue", queue],
        ]
        seen, order = set(), []
        for n, arguments in enumerate(runs):
            out = os.path.join(work, f"callgrind.{n}")
            r = bench.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", nse]
                          + arguments)
            if not os.path.exists(out):
                bench.say(f"callgrind wrote nothing for {arguments}: {r.stderr[-500:]}")
                return 1
            for name in executed_functions(out, nse):
                if name not in seen:
                    seen.add(name)
                    order.append(name)
    finally:
        srv.stop()
        shutil.rmtree(work, ignore_errors=True)
    header = ("# The functions carillon-nse's common runs execute, for lld's --symbol-ordering-file (Package.swift).\n"
              "# Written by TestAssets/Bench/startup_order.py; do not edit by hand.\n"
              "# Kept in the product: every run of the release binary maps less of it with its functions in this order\n"
              "# (the executable's text in a run's RSS 4.5 -> 2.8 MiB, peak RSS of a 10 KiB run 18.8 -> 17.0 MiB;\n"
              "# TestAssets/Bench/README.md, \"Measurements behind the code\"). A stale entry is skipped, never an error.\n")
    with open(args.output + ".tmp", "w") as f:
        f.write(header + "\n".join(order) + "\n")
    os.replace(args.output + ".tmp", args.output)
    # SwiftPM does not know the order file is an input of the link: without the binary, the next build relinks.
    os.unlink(os.path.realpath(nse))
    bench.say(f"{len(order)} functions written to {os.path.relpath(args.output, bench.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
