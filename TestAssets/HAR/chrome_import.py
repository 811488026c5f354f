#!/usr/bin/env python3
"""Opens HAR files with Chrome's own HAR importer, headless and offline, and says what Chrome made of them.

    TestAssets/HAR/chrome_import.py FILE.har [FILE.har ...]

Chrome's Network panel imports a HAR with DevTools' `models/har` module: `HARFormat.HARRoot` checks the
document (it throws on a missing or mistyped required field) and `Importer.requestsFromHARLog` turns each
entry into the request the panel lists and previews. This script runs exactly that code, as the installed
Chromium bundles it, on each file:

1. a first headless Chromium serves its bundled DevTools front end on a loopback port
   (`--remote-debugging-port=0`; the port is read from DevToolsActivePort in its fresh profile);
2. a page served from another loopback port holds the HAR and imports `models/har/har.js` from the first;
3. a second headless Chromium loads that page (`--dump-dom`), which runs the importer, asks each
   imported request for its content as Chrome's preview does, decodes every image body with the browser's
   own decoder, and writes the result into the page.

Prints one JSON object: {"chrome": version, "files": [{"file", "error" | "requests": [{"url", "method",
"status", "mime", "protocol", "resource_size", "content": "base64" | "text" | "none", "image": [w, h] or
"error": text}]}]}. Exit 0 when every file was imported; 1 when one was refused (the object still says
why); 3 when Chromium is missing.

Nothing leaves the machine: every host name but 127.0.0.1 resolves to nothing and any proxied request goes
to a closed loopback port. `--disable-web-security` lets the page (one loopback port) import the front
end's modules (another); it applies to that throwaway profile only.
"""
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PAGE = """<!doctype html><meta charset="utf-8"><title>HAR import</title>
<script type="application/json" id="har">%(har)s</script>
<pre id="result">pending</pre>
<script type="module">
const out = document.getElementById('result');
async function content(request) {
  const data = await request.requestContentData();
  if (!data || data.error !== undefined) return {content: 'none', error: String(data && data.error)};
  if (data.isEmpty) return {content: 'none'};
  const url = data.asDataUrl();
  const kind = data.createdFromBase64 ? 'base64' : 'text';
  if (!url || !(request.mimeType || '').startsWith('image/')) return {content: url ? kind : 'none'};
  const image = new Image();
  image.src = url;
  try {
    await image.decode();
    return {content: kind, image: [image.naturalWidth, image.naturalHeight]};
  } catch (error) {
    return {content: kind, error: 'the browser cannot decode the image: ' + error};
  }
}
try {
  const HAR = await import('http://127.0.0.1:%(port)d/devtools/models/har/har.js');
  const root = new HAR.HARFormat.HARRoot(JSON.parse(document.getElementById('har').textContent));
  const requests = HAR.Importer.Importer.requestsFromHARLog(root.log);
  const rows = [];
  for (const request of requests) {
    rows.push(Object.assign({
      url: request.url(), method: request.requestMethod, status: request.statusCode, mime: request.mimeType,
      protocol: request.protocol, resource_size: request.resourceSize,
    }, await content(request)));
  }
  out.textContent = JSON.stringify({requests: rows});
} catch (error) {
  out.textContent = JSON.stringify({error: String(error)});
}
</script>
"""

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--metrics-recording-only", "--mute-audio",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--proxy-server=127.0.0.1:9",
]


def browser():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def front_end(chromium, profile):
    """Starts the Chromium that serves DevTools' front end; returns (process, port)."""
    process = subprocess.Popen(
        [chromium, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-address=127.0.0.1",
         "--remote-debugging-port=0", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    marker = os.path.join(profile, "DevToolsActivePort")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"chrome_import.py: chromium exited with {process.returncode} before serving DevTools")
        try:
            with open(marker) as file:
                port = int(file.readline())
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/devtools/models/har/har.js", timeout=5) as answer:
                if answer.status == 200:
                    return process, port
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    process.kill()
    raise SystemExit("chrome_import.py: chromium did not serve DevTools' models/har/har.js within 60 s")


def serve(pages):
    """Serves `pages` ({path: bytes}) on a loopback port; returns the server."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path.split("?")[0])
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def import_one(chromium, path, devtools_port, page_port, pages, scratch, index):
    with open(path, "rb") as file:
        har = file.read().decode("utf-8-sig")
    # Inside <script>, only "</" could end the element early; JSON allows "<\/" for it.
    pages[f"/{index}.html"] = (PAGE % {"har": har.replace("</", "<\\/"), "port": devtools_port}).encode()
    profile = os.path.join(scratch, f"page-{index}")
    run = subprocess.run(
        [chromium, *FLAGS, f"--user-data-dir={profile}", "--disable-web-security", "--virtual-time-budget=20000",
         "--timeout=60000", "--dump-dom", f"http://127.0.0.1:{page_port}/{index}.html"],
        capture_output=True, timeout=120)
    found = re.search(r'<pre id="result">(.*?)</pre>', run.stdout.decode("utf-8", "replace"), re.S)
    if not found:
        return {"file": path, "error": "chromium printed no page; its log ends: " + run.stderr.decode()[-400:]}
    text = html.unescape(found.group(1))
    if text == "pending":
        return {"file": path, "error": "the importer did not finish (pending)"}
    return {"file": path, **json.loads(text)}


def main(paths):
    chromium = browser()
    if not chromium:
        print("chrome_import.py: chromium is not installed (Debian: apt-get install -y chromium)", file=sys.stderr)
        return 3
    scratch = tempfile.mkdtemp(prefix="carillon-chrome-har.")
    devtools = None
    server = None
    try:
        devtools, port = front_end(chromium, os.path.join(scratch, "devtools"))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=5) as answer:
            version = json.load(answer).get("Browser", "")
        pages = {}
        server = serve(pages)
        files = [import_one(chromium, path, port, server.server_address[1], pages, scratch, index)
                 for index, path in enumerate(paths)]
        print(json.dumps({"chrome": version, "files": files}))
        return 1 if any("error" in file for file in files) else 0
    finally:
        if server:
            server.shutdown()
        if devtools:
            devtools.kill()
            devtools.wait()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    sys.exit(main(sys.argv[1:]))
