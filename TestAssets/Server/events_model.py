"""What the events API stand-in knows and records: keys, messages (campaigns) and their deliveries from a
fixture file, the events reported for them, and the two read views of SPEC §10 (the message and its
hourly opens). No HTTP here: events_api.py answers requests with these functions.

The fixture (JSON; every member optional):

    {"keys": [{"key": "carillon_mk_test_a", "app": "app_a"},
              {"key": "carillon_sk_test_a", "app": "app_a", "scopes": ["deliveries:read"]}],
     "messages": [{"id": "…", "app": "app_a", "created_at": "2026-08-20T09:00:00.000Z",
                   "deliveries": [{"id": "…", "device_id": "…", "platform": "ios" | "android" | null,
                                   "status": "sent" | "failed" | "pending", "error_code": null | "…"}]}]}

A key's kind is its prefix: carillon_mk_… posts events for its app, carillon_sk_… reads its app's
messages (the hourly opens also need the deliveries:read scope). Without a fixture, or with one that
lists no messages, every well-formed delivery id is recorded (the upload tests' stand-in, as before).
"""

import json
import re
import threading
import time
from datetime import datetime, timezone

MAX_AGE_MS = 30 * 86_400_000
HOUR_MS = 3_600_000
WINDOW_MS = 48 * HOUR_MS
SAMPLED = 50
AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
MOBILE, SECRET = "carillon_mk_", "carillon_sk_"
PLATFORMS = ("ios", "android")
STATUSES = ("sent", "failed", "pending")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def iso(ms):
    return datetime.fromtimestamp(ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_at(text):
    """Milliseconds since the epoch, or None. fromisoformat is C; strptime, ten times slower, made this
    server the larger part of the benchmark's upload."""
    if not isinstance(text, str) or not AT.match(text):
        return None
    try:
        d = datetime.fromisoformat(text[:23] + "+00:00")
    except ValueError:
        return None
    delta = d - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000


class FixtureError(Exception):
    pass


class Key:
    """A key the API knows: `app` None is the --key-file key, a mobile key that posts for every app."""

    def __init__(self, text, app, scopes=()):
        self.text, self.app, self.scopes = text, app, frozenset(scopes)
        self.mobile = app is None or text.startswith(MOBILE)
        self.secret = app is not None and text.startswith(SECRET)


def load_fixture(path):
    """(keys by text, messages in order, delivery id -> message) from the fixture file, or FixtureError
    naming the file and what is wrong."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as exc:
        raise FixtureError(f"{path}: {exc}")
    if not isinstance(doc, dict):
        raise FixtureError(f"{path}: the fixture must be a JSON object")
    keys = {}
    for i, k in enumerate(doc.get("keys", [])):
        text, app = k.get("key"), k.get("app")
        if not isinstance(text, str) or not text.startswith((MOBILE, SECRET)) or not isinstance(app, str):
            raise FixtureError(f"{path}: keys[{i}] needs a carillon_mk_/carillon_sk_ key and an app")
        keys[text] = Key(text, app, k.get("scopes", []))
    messages, owner = {}, {}
    for i, m in enumerate(doc.get("messages", [])):
        where = f"{path}: messages[{i}]"
        created = parse_at(m.get("created_at"))
        if not isinstance(m.get("id"), str) or not isinstance(m.get("app"), str) or created is None:
            raise FixtureError(f"{where} needs id, app and created_at (YYYY-MM-DDTHH:MM:SS.fffZ)")
        message = {"id": m["id"], "app": m["app"], "created_ms": created, "deliveries": []}
        for j, d in enumerate(m.get("deliveries", [])):
            if (not isinstance(d.get("id"), str) or d.get("platform") not in PLATFORMS + (None,)
                    or d.get("status") not in STATUSES or d["id"] in owner):
                raise FixtureError(f"{where}.deliveries[{j}]: needs a unique id, status sent/failed/pending "
                                   "and platform ios/android/null")
            message["deliveries"].append({"id": d["id"], "device_id": d.get("device_id"),
                                          "platform": d.get("platform"), "status": d["status"],
                                          "error_code": d.get("error_code")})
            owner[d["id"]] = message
        messages[m["id"]] = message
    return keys, messages, owner


class State:
    def __init__(self, legacy_key, now_ms=None, fixture=None):
        self.keys, self.messages, self.owner = load_fixture(fixture) if fixture else ({}, {}, {})
        if legacy_key is not None:
            self.keys.setdefault(legacy_key, Key(legacy_key, None))
        self.fixed_now = now_ms
        self.lock = threading.Lock()
        self.clear()
        self.connections = 0
        self.server_seconds = 0.0

    def clear(self):
        self.recorded = {}          # (type, id) -> record, insertion-ordered; "_ms" members stay inside
        self.faults = []            # one per POST /v1/events
        self.get_faults = []        # one per GET /v1/messages/…
        self.posts = 0
        self.gets = 0
        self.dropped = {"unknown": 0, "foreign": 0, "repeat": 0}

    def now_ms(self):
        return self.fixed_now if self.fixed_now is not None else int(time.time() * 1000)

    def record(self, events, key):
        """First report wins; unknown (with a fixture), foreign and repeated ids are dropped silently.
        The clock rule: an `at` that is impossible, in the future or over 30 days old is stored as now."""
        now = self.now_ms()
        with self.lock:
            for e in events:
                k = (e["type"], e["delivery_id"])
                if self.messages:
                    message = self.owner.get(e["delivery_id"])
                    if message is None:
                        self.dropped["unknown"] += 1
                        continue
                    if key.app is not None and message["app"] != key.app:
                        self.dropped["foreign"] += 1
                        continue
                r = self.recorded.get(k)
                if r:
                    r["reports"] += 1
                    self.dropped["repeat"] += 1
                    continue
                sent = e["_ms"]
                replaced = sent is None or sent > now or now - sent > MAX_AGE_MS
                self.recorded[k] = {"type": e["type"], "delivery_id": e["delivery_id"],
                                    "at": iso(now) if replaced else e["at"], "sent_at": e["at"],
                                    "replaced": replaced, "reported_at": iso(now), "reports": 1,
                                    "_ms": now if replaced else sent}

    def recorded_view(self):
        return [{n: v for n, v in r.items() if not n.startswith("_")} for r in self.recorded.values()]

    def message_view(self, message):
        """GET /v1/messages/{id}: outcomes over every delivery, platforms over those with a platform,
        the first 50 deliveries in order."""
        with self.lock:
            platforms = {p: {"sent": 0, "failed": 0, "pending": 0, "opened": 0, "total": 0} for p in PLATFORMS}
            opened, deliveries = 0, []
            for d in message["deliveries"]:
                opened_record = self.recorded.get(("opened", d["id"]))
                received = self.recorded.get(("received", d["id"]))
                opened += opened_record is not None
                bucket = platforms.get(d["platform"])
                if bucket is not None:
                    bucket[d["status"]] += 1
                    bucket["opened"] += opened_record is not None
                    bucket["total"] += 1
                if len(deliveries) < SAMPLED:
                    deliveries.append({
                        "id": d["id"], "device_id": d["device_id"], "status": d["status"],
                        "error_code": d["error_code"],
                        "opened_at": opened_record["at"] if opened_record else None,
                        "received_at": received["at"] if received else None,
                        "received_reported_at": received["reported_at"] if received else None})
        return {"id": message["id"], "outcomes": {"opened": opened}, "platforms": platforms,
                "deliveries": deliveries}

    def opens_view(self, message):
        """GET /v1/messages/{id}/opens: one row per hour from the creation's hour through the current
        hour, within the first 48 hours after creation; opens outside that window count in no row; no
        rows at all when the campaign has no recorded open."""
        with self.lock:
            opens = [r["_ms"] for d in message["deliveries"]
                     if (r := self.recorded.get(("opened", d["id"]))) is not None]
        if not opens:
            return {"hours": []}
        created = message["created_ms"]
        first = created - created % HOUR_MS
        now = self.now_ms()
        last = min(now - now % HOUR_MS, (created + WINDOW_MS - 1) // HOUR_MS * HOUR_MS)
        counts = {}
        for ms in opens:
            if created <= ms < created + WINDOW_MS:
                hour = ms - ms % HOUR_MS
                counts[hour] = counts.get(hour, 0) + 1
        return {"hours": [{"hour": iso(h), "opened": counts.get(h, 0)} for h in range(first, last + 1, HOUR_MS)]}
