#!/usr/bin/env python3
"""Writes a sample campaign as JSON Lines from template.json: one payload per recipient.

    generate.py BASE_URL [COUNT] > campaign.jsonl

Each line is the template with {{N}}, {{TITLE}}, {{DELIVERY_ID}} and {{IMAGE}} filled in. Most
recipients get one of four good banners served by the local test server (TestAssets/Server/server.py);
a few get a broken one (a WebP, a 404, an http:// redirect, a body one byte over the 10 MiB cap), and
every 50th has no image at all (the template's image member removed), as real campaigns mix them.
"""
import json
import os
import sys

GOOD = ["/img/png", "/img/jpeg", "/img/gif", "/img/gif-animated"]
BROKEN = ["/bad/webp", "/status/404", "/redirect/to-http", "/size/cap-plus-1"]
TITLES = ["Autumn sale", "Last chance", "New arrivals"]


def image_for(n):
    if n % 50 == 49:
        return None
    if n % 97 == 13:  # about 1 in 100: the banner that breaks
        return BROKEN[(n // 97) % len(BROKEN)]
    return GOOD[n % len(GOOD)]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    base_url = sys.argv[1].rstrip("/")
    count = int(sys.argv[2]) if len(sys.argv) == 3 else 3000
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "template.json")) as f:
        template = f.read().strip()
    out = sys.stdout
    for n in range(count):
        path = image_for(n)
        text = (template.replace("{{N}}", str(n + 1))
                .replace("{{TITLE}}", TITLES[n % len(TITLES)])
                .replace("{{DELIVERY_ID}}", "01937b21-0000-7000-8000-%012d" % n)
                .replace("{{IMAGE}}", base_url + path if path else ""))
        payload = json.loads(text)  # the template must stay valid JSON
        if path is None:
            del payload["carillon"]["image"]
        out.write(json.dumps(payload, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
