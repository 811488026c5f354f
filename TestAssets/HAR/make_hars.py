#!/usr/bin/env python3
"""Writes the HAR fixtures of this folder: one file per exporter, shaped as that exporter writes its
files (DESIGN-replay.md §1.2 and §1.2b), each holding a notification image's request on example hosts.
Rerun after changing it: `python3 TestAssets/HAR/make_hars.py` (the output is deterministic)."""
import base64, json, os, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
PNG = open(os.path.join(HERE, "..", "Images", "sample.png"), "rb").read()
JPEG = open(os.path.join(HERE, "..", "Images", "sample.jpg"), "rb").read()
B64 = base64.b64encode(PNG).decode()
URL = "https://img.example.com/push/a.png"


def har(creator, entries, version="1.2", **log):
    return {"log": {"version": version, "creator": creator, "pages": [], "entries": entries, **log}}


def entry(url, started, status, headers, content, http="HTTP/1.1", request_headers=None, **extra):
    return {
        "startedDateTime": started, "time": 12.5,
        "request": {"method": "GET", "url": url, "httpVersion": http, "cookies": [], "queryString": [],
                    "headers": request_headers or [{"name": "Accept", "value": "image/avif,image/webp,*/*"}],
                    "headersSize": -1, "bodySize": 0},
        "response": {"status": status, "statusText": "", "httpVersion": http, "cookies": [],
                     "headers": headers, "content": content, "redirectURL": "", "headersSize": -1,
                     "bodySize": content.get("size", 0)},
        "cache": {}, "timings": {"blocked": 1, "dns": 2, "connect": 8, "ssl": 5, "send": 0.2, "wait": 3, "receive": 0.5},
        **extra}


png_headers = [{"name": "content-type", "value": "image/png"}, {"name": "content-length", "value": str(len(PNG))}]
png_content = {"size": len(PNG), "mimeType": "image/png", "text": B64, "encoding": "base64"}


def write(name, document):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(document, f, indent=2)
        f.write("\n")


# Chrome over HTTP/2: pseudo-headers in the request, "h2", _fromCache, _resourceType, a redirect, and a
# second image that failed with status 0 and _error.
chrome_request = [{"name": ":method", "value": "GET"}, {"name": ":authority", "value": "img.example.com"},
                  {"name": ":scheme", "value": "https"}, {"name": ":path", "value": "/push/a.png"},
                  {"name": "accept", "value": "image/avif,image/webp,image/apng,*/*;q=0.8"},
                  {"name": "accept-encoding", "value": "gzip, deflate, br, zstd"},
                  {"name": "cookie", "value": "session=abc"},
                  {"name": "user-agent", "value": "Mozilla/5.0 Chrome/131.0.0.0"}]
write("chrome.har", har({"name": "WebInspector", "version": "537.36"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 200, png_headers + [{"name": "vary", "value": "Accept"}], png_content, "h2",
          chrome_request, _resourceType="image", _priority="Low", _fromCache="disk", serverIPAddress="203.0.113.7",
          connection="312"),
    entry("https://img.example.com/short/a", "2026-12-02T10:00:00.100Z", 302,
          [{"name": "location", "value": "/push/a.png"}, {"name": "content-length", "value": "0"}],
          {"size": 0, "mimeType": "x-unknown"}, "h2", chrome_request, _resourceType="image", connection="312"),
    entry("https://img.example.com/gone.png", "2026-12-02T10:00:01.000Z", 0, [],
          {"size": 0, "mimeType": "x-unknown"}, "", chrome_request, _resourceType="image",
          _error="net::ERR_CERT_DATE_INVALID"),
]))

# Chrome's sanitized export (Chrome 130+): the same request without Cookie or Authorization.
write("chrome-sanitized.har", har({"name": "WebInspector", "version": "537.36"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 200, png_headers, png_content, "http/2.0",
          [h for h in chrome_request if h["name"] != "cookie"], _resourceType="image")]))

# Chrome answering a conditional request from its cache: a 304 with the full cached body.
write("chrome-304.har", har({"name": "WebInspector", "version": "537.36"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 304, [{"name": "etag", "value": "\"v1\""}], png_content, "h2",
          chrome_request + [{"name": "if-none-match", "value": "\"v1\""}], _resourceType="image", _fromCache="memory")]))

# Firefox: the image's body left out, with a comment.
write("firefox.har", har({"name": "Firefox", "version": "133.0"}, [
    entry(URL, "2026-12-02T11:00:00.000+01:00", 200, png_headers,
          {"size": len(PNG), "mimeType": "image/png", "comment": "Response bodies are not included."}, "HTTP/2",
          _securityState="secure")], browser={"name": "Firefox", "version": "133.0"}))

# Safari's Web Inspector, from its memory cache: _fetchType, content.size 0 beside the full body, merged headers.
write("safari.har", har({"name": "WebKit Web Inspector", "version": "20621.1.15"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 200, png_headers, dict(png_content, size=0), "HTTP/2",
          _fetchType="Memory Cache", _transferSize=0)]))

# HTTP Toolkit: a body over 40 KiB left out, duplicate headers joined with commas.
write("httptoolkit.har", har({"name": "HTTP Toolkit", "version": "1.19.0"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 200,
          [{"name": "content-type", "value": "image/png"}, {"name": "content-length", "value": "48213, 48213"}],
          {"size": 48213, "mimeType": "image/png"}, "HTTP/1.1"),
    entry("https://img.example.com/push/b.png", "2026-12-02T10:00:00.300Z", 200, png_headers, png_content)]))

# ProxyPin: image bytes as Latin-1 characters, no encoding.
write("proxypin.har", har({"name": "ProxyPin", "version": "1.1.0"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 200, png_headers,
          {"size": len(PNG), "mimeType": "image/png", "text": PNG.decode("latin-1")})]))

# Polly.js before version 6: hex with a private flag.
write("polly.har", har({"name": "Polly.JS", "version": "5.1.1", "comment": "persister:fs"}, [
    entry(URL, "2026-12-02T10:00:00.200Z", 200, png_headers,
          {"size": len(PNG), "mimeType": "image/png", "text": PNG.hex(), "encoding": "hex", "_isBinary": True},
          _id="f0c2b1", _order=0)]))

# mitmproxy's hardump to a .zhar: zlib, content.size the wire length of a gzip-encoded JPEG (its text decoded).
gz = zlib.compressobj(9, zlib.DEFLATED, 31)
wire = gz.compress(JPEG) + gz.flush()
mitm = har({"name": "mitmproxy", "version": "11.0.0", "comment": ""}, [
    entry("https://img.example.com/push/c.jpg", "2026-12-02T10:00:00.200000+00:00", 200,
          [{"name": "Content-Type", "value": "image/jpeg"}, {"name": "Content-Encoding", "value": "gzip"},
           {"name": "Content-Length", "value": str(len(wire))}],
          {"size": len(wire), "compression": 0, "mimeType": "image/jpeg",
           "text": base64.b64encode(JPEG).decode(), "encoding": "base64"}, "HTTP/1.1", serverIPAddress="203.0.113.9")])
with open(os.path.join(HERE, "mitmproxy.zhar"), "wb") as f:
    f.write(zlib.compress(json.dumps(mitm).encode(), 9))
