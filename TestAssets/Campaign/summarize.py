#!/usr/bin/env python3
"""Prints a campaign summary (carillon-nse process --summary FILE.json) as a table, one image a line.

    summarize.py SUMMARY.json
"""
import json
import sys

summary = json.load(open(sys.argv[1]))
totals = summary["totals"]
print(f"{totals['payloads']} payloads, {totals['images']} distinct images, {totals['images_failed']} failed, "
      f"{totals['payloads_attached']} attached, {totals['payloads_failed']} payloads with a failed image")
for image in summary["images"]:
    size = f"{image['width']}x{image['height']}" if image["width"] else "-"
    print(f"  {image['verdict']:<5} {image['reason']:<18} {image['payloads']:>6}  {image['type'] or '-':<4} {size:<9} "
          f"{image['url']}")
    if image["verdict"] != "pass":
        print(f"        {image['detail']}")
print("  reasons: " + ", ".join(f"{n} {code}" for code, n in summary["reasons"].items()))
