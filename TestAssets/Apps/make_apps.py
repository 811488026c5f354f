#!/usr/bin/env python3
"""Writes built iOS apps for `carillon-nse doctor` and `--app`: a healthy one and one per fault of SPEC §11,
each in every input form (.ipa, .app, .xcarchive, a zip of the .app), plus hostile archives for the readers.

Real formats, made with Python's standard library and the `openssl` command: Info.plists in XML and binary
form (plistlib), Mach-O executables with an LC_CODE_SIGNATURE superblob (struct: a CodeDirectory whose page
hashes are the real SHA-256 of the pages, requirements, XML and DER entitlements), provisioning profiles as
CMS SignedData (`openssl cms -sign -nodetach`, DER, and BER with indefinite lengths for some) signed by a
throwaway certificate made here, and zips (zipfile). Nothing is committed: the tests run this into a
temporary directory.

    python3 TestAssets/Apps/make_apps.py OUT [--at 2026-12-01T00:00:00Z] [--only NAME...]
    python3 TestAssets/Apps/make_apps.py OUT --big-ipa MB        (the benchmark's .ipa: a large stored asset)

OUT/manifest.json lists each app: its directory, the files of each form, and what `doctor` must find
(`expect`: [check, status, target] triples that must appear; `exit`: the status).
"""

import argparse
import datetime
import hashlib
import json
import os
import plistlib
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib

TEAM = "ABCDE12345"
APP_ID = "com.example.carillon"
NSE_ID = APP_ID + ".CarillonNotificationExtension"
CONTENT_ID = APP_ID + ".NotificationContent"
GROUP = "group.com.example.carillon"
CPU_ARM64 = 0x0100000C
CPU_ARMV7 = 0x0000000C

# ---------------------------------------------------------------------------------------------------------
# The model of an app: targets with their Info.plist, entitlements, profile and executable options.


def target(kind, bundle_id, executable, **options):
    """One target: `kind` app, service, content or other."""
    spec = {
        "kind": kind,
        "bundle_id": bundle_id,
        "executable": executable,
        "version": "42",
        "short_version": "1.2.3",
        "min_os": "15.0",
        "group": GROUP,
        "entitlement_groups": [GROUP],
        "profile_groups": [GROUP],
        "aps": "production" if kind == "app" else None,
        "profile_aps": "production" if kind == "app" else None,
        "profile": True,
        "profile_app_id": None,  # default: TEAM.bundle_id
        "profile_expires": "2027-06-01T00:00:00Z",
        "profile_ber": kind == "service",  # BER with indefinite lengths, as Apple's profiles are
        "signed": True,
        "code_directory": True,
        "entitlements_form": "xml",  # xml, der, both
        "fat": False,
        "encrypted": False,
        "plist_form": "binary" if kind == "app" else "xml",
        "principal": "NotificationService" if kind == "service" else ("NotificationViewController" if kind == "content" else None),
        "ats": None,
        "categories": ["carillon-photo"] if kind == "content" else None,
        "hidden": False,
        "extra_info": {},
        "extra_entitlements": {},
        "has_executable": True,
        "lie": None,
    }
    spec.update(options)
    return spec


def healthy():
    return {
        "app": target("app", APP_ID, "Carillon", ats={"NSExceptionDomains": {"images.example.com": {"NSIncludesSubdomains": True}}},
                      extra_entitlements={"com.apple.developer.usernotifications.time-sensitive": True}),
        "plugins": [
            target("service", NSE_ID, "NotificationService",
                   ats={"NSExceptionDomains": {"images.example.com": {"NSIncludesSubdomains": True}}}),
            target("content", CONTENT_ID, "NotificationContent", group=None, entitlement_groups=[], profile_groups=[]),
        ],
    }


def variant(change):
    app = healthy()
    change(app)
    return app


def service(app):
    return next(p for p in app["plugins"] if p["kind"] == "service")


def set_service(**options):
    return lambda app: service(app).update(options)


def set_app(**options):
    return lambda app: app["app"].update(options)


def both(*changes):
    def apply(app):
        for change in changes:
            change(app)
    return apply


def remove_service(app):
    app["plugins"] = [p for p in app["plugins"] if p["kind"] != "service"]


def add_second_service(app):
    app["plugins"].append(target("service", APP_ID + ".SecondService", "SecondService"))


def ats_tls11(app):
    """The extension's own exception for the test server's address: TLS 1.1 allowed (iOS 17 takes addresses)."""
    service(app)["ats"] = {"NSExceptionDomains": {"images.example.com": {"NSIncludesSubdomains": True},
                                                  "127.0.0.1": {"NSExceptionMinimumTLSVersion": "TLSv1.1"}}}


# Each app: (name, model, expected findings, exit status). A finding is (check, status, target).
APPS = [
    ("healthy", healthy(), [("service-extension", "pass", NSE_ID), ("app-group-info-plist", "pass", NSE_ID)], 0),
    ("fat-der-encrypted", variant(both(set_app(fat=True, encrypted=True), set_service(entitlements_form="der", plist_form="binary"))),
     [("signed", "pass", APP_ID), ("app-group-entitlements", "pass", NSE_ID)], 0),
    ("app-store", variant(both(set_app(encrypted=True, profile=False), set_service(encrypted=True, profile=False),
                               lambda app: app["plugins"][1].update(encrypted=True, profile=False))),
     [("profile", "unknown", APP_ID), ("app-group-profiles", "unknown", NSE_ID), ("aps-environment", "unknown", APP_ID)], 0),
    ("no-service-extension", variant(remove_service), [("service-extension", "fail", APP_ID)], 2),
    ("two-service-extensions", variant(add_second_service), [("service-extension", "fail", APP_ID)], 2),
    ("no-principal-class", variant(set_service(principal=None)), [("service-extension", "fail", NSE_ID)], 2),
    ("bundle-id-not-prefixed", variant(set_service(bundle_id="com.example.other.NotificationService")),
     [("bundle-id-prefix", "fail", "com.example.other.NotificationService")], 2),
    ("extension-minimum-os-above", variant(set_service(min_os="18.0")), [("minimum-os", "fail", NSE_ID)], 2),
    ("extension-unsigned", variant(set_service(signed=False)), [("signed", "fail", NSE_ID)], 2),
    ("signature-without-code-directory", variant(set_service(code_directory=False)), [("signed", "fail", NSE_ID)], 2),
    ("extension-executable-missing", variant(set_service(has_executable=False)), [("signed", "fail", NSE_ID)], 2),
    ("profile-missing", variant(set_service(profile=False)), [("profile", "fail", NSE_ID)], 2),
    ("profile-wrong-app-id", variant(set_service(profile_app_id=TEAM + ".com.example.carillon.Other")), [("profile", "fail", NSE_ID)], 2),
    ("profile-expired", variant(set_service(profile_expires="2026-01-01T00:00:00Z")), [("profile-expiry", "fail", NSE_ID)], 2),
    ("aps-environment-mismatch", variant(set_app(aps="development")), [("aps-environment", "fail", APP_ID)], 2),
    ("no-aps-environment", variant(set_app(aps=None)), [("aps-environment", "fail", APP_ID)], 2),
    ("no-app-group", variant(both(set_app(group=None), set_service(group=None))), [("app-group-info-plist", "warn", APP_ID)], 0),
    ("app-group-differs", variant(set_service(group="group.com.example.carillon.nse")), [("app-group-info-plist", "fail", NSE_ID)], 2),
    ("app-group-missing-in-extension", variant(set_service(group=None)), [("app-group-info-plist", "fail", NSE_ID)], 2),
    ("app-group-not-signed", variant(set_service(entitlement_groups=[])), [("app-group-entitlements", "fail", NSE_ID)], 2),
    ("app-group-not-in-profile", variant(set_app(profile_groups=["group.com.example.other"])), [("app-group-profiles", "fail", APP_ID)], 2),
    ("ats-exception-only-in-app", variant(set_service(ats=None)), [("ats-exceptions", "warn", NSE_ID)], 0),
    ("content-extension-without-category", variant(lambda app: app["plugins"][1].update(categories=None)),
     [("content-extensions", "warn", CONTENT_ID)], 0),
    # Its app is also signed without the time-sensitive entitlement (a fact for SPEC §12, never a finding).
    ("content-extension-hides-default-content", variant(both(lambda app: app["plugins"][1].update(hidden=True),
                                                            set_app(extra_entitlements={}))),
     [("content-extensions", "warn", CONTENT_ID), ("notification-entitlements", "pass", APP_ID)], 0),
    ("app-group-only-in-extension", variant(set_app(group=None)), [("app-group-info-plist", "fail", NSE_ID)], 2),
    ("app-group-not-signed-in-app", variant(set_app(entitlement_groups=["group.com.example.other"])),
     [("app-group-entitlements", "fail", APP_ID)], 2),
    ("app-group-not-in-extension-profile", variant(set_service(profile_groups=[])), [("app-group-profiles", "fail", NSE_ID)], 2),
    ("app-unsigned", variant(set_app(signed=False)), [("signed", "fail", APP_ID)], 2),
    ("app-profile-missing", variant(set_app(profile=False)), [("profile", "fail", APP_ID)], 2),
    ("arbitrary-loads-only-in-app", variant(set_app(ats={"NSAllowsArbitraryLoads": True, "NSExceptionDomains": {
        "images.example.com": {"NSIncludesSubdomains": True}}})), [("ats-exceptions", "warn", NSE_ID)], 0),
    # Keys not as Apple's Information Property List reference types them: a string 'YES' for a Boolean, a
    # domain with a space and a port, a TLS version that is none.
    ("ats-malformed", variant(set_service(ats={"NSAllowsArbitraryLoads": "YES", "NSExceptionDomains": {
        "images.example.com": {"NSIncludesSubdomains": True, "NSExceptionMinimumTLSVersion": "SSLv3"},
        "Bad Domain:443": {"NSIncludesSubdomains": True}}})), [("ats-exceptions", "warn", NSE_ID)], 0),
    ("ats-tls11", variant(ats_tls11), [("ats-exceptions", "pass", NSE_ID)], 0),
    ("insecure-http-exception", variant(set_service(ats={"NSExceptionDomains": {
        "images.example.com": {"NSIncludesSubdomains": True}, "127.0.0.1": {"NSExceptionAllowsInsecureHTTPLoads": True}}})),
     [("ats-exceptions", "pass", NSE_ID)], 0),
]

# Hostile archives (each a zip the reader must refuse, exit 1, naming the member where one is at fault).
HOSTILE = ["traversal", "absolute", "bomb", "overlap", "truncated", "deep-plist", "lying-load-command", "lying-signature", "plist-cycle"]

# ---------------------------------------------------------------------------------------------------------
# Property lists, DER entitlements, the Mach-O executable and its code signature.


def plist_bytes(value, form):
    return plistlib.dumps(value, fmt=plistlib.FMT_BINARY if form == "binary" else plistlib.FMT_XML, sort_keys=False)


def der_length(n):
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def der(tag, content):
    return bytes([tag]) + der_length(len(content)) + content


def der_value(value):
    """An entitlement value as CoreEntitlements writes it."""
    if isinstance(value, bool):
        return der(0x01, b"\xff" if value else b"\x00")
    if isinstance(value, int):
        return der(0x02, value.to_bytes(max(1, (value.bit_length() + 8) // 8), "big", signed=True))
    if isinstance(value, str):
        return der(0x0C, value.encode())
    if isinstance(value, list):
        return der(0x30, b"".join(der_value(v) for v in value))
    if isinstance(value, dict):
        return der(0xB0, b"".join(der(0x30, der(0x0C, k.encode()) + der_value(v)) for k, v in sorted(value.items())))
    raise TypeError(value)


def der_entitlements(entitlements):
    return der(0x70, der(0x02, b"\x01") + der_value(entitlements))


def blob(magic, payload):
    return struct.pack(">II", magic, 8 + len(payload)) + payload


def code_directory(identifier, team, code):
    """A CodeDirectory (version 0x20400): the SHA-256 of each 4 KiB page of `code`."""
    pages = [code[i:i + 4096] for i in range(0, len(code), 4096)] or [b""]
    hashes = b"".join(hashlib.sha256(page).digest() for page in pages)
    ident = identifier.encode() + b"\0"
    team_bytes = team.encode() + b"\0"
    header_size = 88
    ident_offset = header_size
    team_offset = ident_offset + len(ident)
    hash_offset = team_offset + len(team_bytes)
    length = hash_offset + len(hashes)
    header = struct.pack(
        ">IIIIIIIIIBBBBIIIIQQQQ", 0xFADE0C02, length, 0x20400, 0, hash_offset, ident_offset, 0, len(pages), len(code),
        32, 2, 0, 12, 0, 0, team_offset, 0, len(code), 0, len(code), 1)
    assert len(header) == header_size, len(header)
    return header + ident + team_bytes + hashes


def superblob(spec, entitlements, code):
    blobs = []
    if spec["code_directory"]:
        blobs.append((0, code_directory(spec["bundle_id"], TEAM, code)))
    blobs.append((2, blob(0xFADE0C01, struct.pack(">I", 0))))
    if spec["entitlements_form"] in ("xml", "both"):
        blobs.append((5, blob(0xFADE7171, plist_bytes(entitlements, "xml"))))
    if spec["entitlements_form"] in ("der", "both"):
        blobs.append((7, blob(0xFADE7172, der_entitlements(entitlements))))
    blobs.append((0x10000, blob(0xFADE0B01, b"")))
    index_size = 12 + 8 * len(blobs)
    offset = index_size
    index = b""
    body = b""
    for slot, data in blobs:
        index += struct.pack(">II", slot, offset)
        body += data
        offset += len(data)
    return struct.pack(">III", 0xFADE0CC0, index_size + len(body), len(blobs)) + index + body


def thin_macho(spec, entitlements, cputype=CPU_ARM64, lie=None, code_size=0x8000):
    """A 64-bit little-endian MH_EXECUTE: a __TEXT segment command, LC_ENCRYPTION_INFO_64 when encrypted,
    and LC_CODE_SIGNATURE leading to the superblob after the 32 KiB of header and code, whose pages the
    CodeDirectory hashes."""
    commands = [struct.pack("<II16sQQQQiiII", 0x19, 72, b"__TEXT", 0x100000000, code_size, 0, code_size, 5, 5, 0, 0)]
    if spec["encrypted"]:
        commands.append(struct.pack("<IIIIII", 0x2C, 24, 0x4000, 0x4000, 1, 0))
    code = bytes((i * 7 + len(spec["bundle_id"])) & 0xFF for i in range(code_size))
    signed = spec["signed"]
    # The signature's size depends only on the page count and the strings, not on the pages' bytes.
    size = len(superblob(spec, entitlements, code)) if signed else 0
    if signed:
        datasize = size if lie != "signature" else size + 0x100000
        commands.append(struct.pack("<IIII", 0x1D, 16, len(code), datasize))
    if lie == "load-command":
        # The last command says it is far larger than sizeofcmds leaves.
        last = bytearray(commands[-1])
        struct.pack_into("<I", last, 4, 0x10000)
        commands[-1] = bytes(last)
    sizeofcmds = sum(len(c) for c in commands)
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, cputype, 0, 2, len(commands), sizeofcmds, 0x00200085, 0)
    head = header + b"".join(commands)
    body = head + code[len(head):]
    return body + (superblob(spec, entitlements, body) if signed else b"")


def macho(spec, entitlements):
    if not spec["fat"]:
        return thin_macho(spec, entitlements, lie=spec.get("lie"))
    slices = [thin_macho(spec, entitlements, CPU_ARMV7), thin_macho(spec, entitlements, CPU_ARM64)]
    out = struct.pack(">II", 0xCAFEBABE, len(slices))
    offset = 0x4000
    table = b""
    layout = []
    for data, cpu in zip(slices, (CPU_ARMV7, CPU_ARM64)):
        table += struct.pack(">iiIII", cpu, 0, offset, len(data), 14)
        layout.append((offset, data))
        offset = (offset + len(data) + 0x3FFF) & ~0x3FFF
    out += table
    for offset, data in layout:
        out += b"\0" * (offset - len(out)) + data
    return out


# ---------------------------------------------------------------------------------------------------------
# Provisioning profiles: a plist in CMS SignedData, signed by a throwaway certificate.


class Signer:
    def __init__(self, directory):
        self.key = os.path.join(directory, "signer.key")
        self.cert = os.path.join(directory, "signer.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", self.key,
             "-out", self.cert, "-days", "2", "-subj", "/CN=carillon-nse test profile signer (throwaway)"],
            check=True, capture_output=True)
        self.directory = directory

    def sign(self, content, ber):
        source = os.path.join(self.directory, "profile.plist")
        out = os.path.join(self.directory, "profile.cms")
        with open(source, "wb") as f:
            f.write(content)
        command = ["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", source, "-signer", self.cert,
                   "-inkey", self.key, "-out", out]
        if ber:
            command.append("-stream")
        subprocess.run(command, check=True, capture_output=True)
        with open(out, "rb") as f:
            return f.read()


def iso(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")


def profile_plist(spec):
    entitlements = {
        "application-identifier": spec["profile_app_id"] or f"{TEAM}.{spec['bundle_id']}",
        "com.apple.developer.team-identifier": TEAM,
        "keychain-access-groups": [f"{TEAM}.*"],
        "get-task-allow": False,
    }
    if spec["profile_aps"]:
        entitlements["aps-environment"] = spec["profile_aps"]
    if spec["profile_groups"]:
        entitlements["com.apple.security.application-groups"] = spec["profile_groups"]
    return {
        "AppIDName": "Carillon " + spec["kind"],
        "ApplicationIdentifierPrefix": [TEAM],
        "CreationDate": iso("2026-06-01T00:00:00Z"),
        "Platform": ["iOS"],
        "DeveloperCertificates": [b"not a certificate: the tool never reads them"],
        "Entitlements": entitlements,
        "ExpirationDate": iso(spec["profile_expires"]),
        "Name": f"Carillon {spec['kind']} App Store",
        "ProvisionsAllDevices": False,
        "TeamIdentifier": [TEAM],
        "TeamName": "Example Ltd",
        "TimeToLive": 365,
        "UUID": hashlib.md5(spec["bundle_id"].encode()).hexdigest(),
        "Version": 1,
    }


# ---------------------------------------------------------------------------------------------------------
# A target's files, then an app's in each form.


def info_plist(spec):
    info = {
        "CFBundleDevelopmentRegion": "en",
        "CFBundleExecutable": spec["executable"],
        "CFBundleIdentifier": spec["bundle_id"],
        "CFBundleInfoDictionaryVersion": "6.0",
        "CFBundleName": spec["executable"],
        "CFBundlePackageType": "APPL" if spec["kind"] == "app" else "XPC!",
        "CFBundleShortVersionString": spec["short_version"],
        "CFBundleVersion": spec["version"],
        "CFBundleSupportedPlatforms": ["iPhoneOS"],
        "MinimumOSVersion": spec["min_os"],
        "UIDeviceFamily": [1, 2],
        "DTPlatformName": "iphoneos",
    }
    if spec["group"]:
        info["CarillonAppGroup"] = spec["group"]
    if spec["ats"] is not None:
        info["NSAppTransportSecurity"] = spec["ats"]
    if spec["kind"] != "app":
        point = {"service": "com.apple.usernotifications.service", "content": "com.apple.usernotifications.content-extension"}
        extension = {"NSExtensionPointIdentifier": point.get(spec["kind"], "com.apple.widgetkit-extension")}
        if spec["principal"]:
            extension["NSExtensionPrincipalClass"] = spec["principal"]
        if spec["kind"] == "content":
            attributes = {"UNNotificationExtensionInitialContentSizeRatio": 1.0,
                          "UNNotificationExtensionDefaultContentHidden": spec["hidden"]}
            if spec["categories"] is not None:
                attributes["UNNotificationExtensionCategory"] = spec["categories"]
            extension["NSExtensionAttributes"] = attributes
        info["NSExtension"] = extension
    info.update(spec["extra_info"])
    return info


def entitlements(spec):
    values = {"application-identifier": f"{TEAM}.{spec['bundle_id']}", "com.apple.developer.team-identifier": TEAM}
    if spec["aps"]:
        values["aps-environment"] = spec["aps"]
    if spec["entitlement_groups"]:
        values["com.apple.security.application-groups"] = spec["entitlement_groups"]
    values.update(spec["extra_entitlements"])
    return values


def bundle_files(spec, signer):
    """{relative path: bytes} of one target's bundle."""
    files = {"Info.plist": plist_bytes(info_plist(spec), spec["plist_form"]), "PkgInfo": b"APPL????"}
    if spec["has_executable"]:
        files[spec["executable"]] = macho(spec, entitlements(spec))
    if spec["profile"]:
        files["embedded.mobileprovision"] = signer.sign(plist_bytes(profile_plist(spec), "xml"), spec["profile_ber"])
    files["_CodeSignature/CodeResources"] = plist_bytes({"files": {}, "files2": {}}, "xml")
    return files


def app_files(model, signer):
    """{path inside Carillon.app: bytes}."""
    files = bundle_files(model["app"], signer)
    for plugin in model["plugins"]:
        base = f"PlugIns/{plugin['executable']}.appex/"
        for path, data in bundle_files(plugin, signer).items():
            files[base + path] = data
    return files


def write_tree(root, files):
    for path, data in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)


def write_zip(path, files, prefix, directories=True):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        if directories:
            seen = set()
            for name in sorted(files):
                parts = (prefix + name).split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    directory = "/".join(parts[:i]) + "/"
                    if directory not in seen:
                        seen.add(directory)
                        archive.writestr(zipfile.ZipInfo(directory), b"")
        for name, data in files.items():
            info = zipfile.ZipInfo(prefix + name, date_time=(2026, 6, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100755 if name.split("/")[-1] in ("Carillon", "NotificationService") else 0o100644) << 16
            archive.writestr(info, data)


def write_zip64(path, files, prefix):
    """A zip whose every size and offset is in ZIP64's extra fields (the 32-bit fields 0xFFFFFFFF), and whose
    end of central directory points to a ZIP64 end record through its locator: what a zip tool writes past
    4 GiB or 65,535 members, written by hand since zipfile does so only when it must."""
    out = bytearray()
    central = bytearray()
    for name, data in files.items():
        encoded = (prefix + name).encode()
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        packed = compressor.compress(data) + compressor.flush()
        crc = zlib.crc32(data)
        offset = len(out)
        local_extra = struct.pack("<HHQQ", 1, 16, len(data), len(packed))
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0x5821, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(encoded), len(local_extra))
        out += encoded + local_extra + packed
        extra = struct.pack("<HHQQQ", 1, 24, len(data), len(packed), offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 45, 0, 8, 0, 0x5821, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                               len(encoded), len(extra), 0, 0, 0, 0o100644 << 16, 0xFFFFFFFF)
        central += encoded + extra
    directory_offset = len(out)
    out += central
    record_offset = len(out)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, len(files), len(files), len(central), directory_offset)
    out += struct.pack("<IIQI", 0x07064B50, 0, record_offset, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    with open(path, "wb") as f:
        f.write(out)


def write_app(out, name, model, signer):
    directory = os.path.join(out, name)
    os.makedirs(directory, exist_ok=True)
    files = app_files(model, signer)
    write_zip(os.path.join(directory, "Carillon.ipa"), files, "Payload/Carillon.app/")
    write_tree(os.path.join(directory, "Carillon.app"), files)
    archive = os.path.join(directory, "Carillon.xcarchive")
    write_tree(os.path.join(archive, "Products/Applications/Carillon.app"), files)
    with open(os.path.join(archive, "Info.plist"), "wb") as f:
        f.write(plist_bytes({"ArchiveVersion": 2, "Name": "Carillon", "ApplicationProperties": {
            "ApplicationPath": "Applications/Carillon.app", "CFBundleIdentifier": APP_ID}}, "xml"))
    os.makedirs(os.path.join(archive, "dSYMs"), exist_ok=True)
    write_zip(os.path.join(directory, "Carillon.app.zip"), files, "Carillon.app/", directories=False)
    forms = {"ipa": f"{name}/Carillon.ipa", "app": f"{name}/Carillon.app", "xcarchive": f"{name}/Carillon.xcarchive",
             "zip": f"{name}/Carillon.app.zip"}
    if name == "healthy":
        write_zip64(os.path.join(directory, "Carillon-zip64.ipa"), files, "Payload/Carillon.app/")
        forms["zip64"] = f"{name}/Carillon-zip64.ipa"
    return forms


# ---------------------------------------------------------------------------------------------------------
# Hostile archives.


def hostile(out, signer):
    directory = os.path.join(out, "hostile")
    os.makedirs(directory, exist_ok=True)
    files = app_files(healthy(), signer)
    written = {}

    def ipa(name, extra=None, change=None):
        path = os.path.join(directory, name + ".ipa")
        content = dict(files)
        if change:
            change(content)
        write_zip(path, content, "Payload/Carillon.app/")
        if extra:
            with zipfile.ZipFile(path, "a") as archive:
                for member, data in extra:
                    archive.writestr(zipfile.ZipInfo(member), data)
        written[name] = f"hostile/{name}.ipa"
        return path

    # A name that climbs out, and an absolute one, in a member the checks never need.
    ipa("traversal", extra=[("Payload/Carillon.app/../../../../tmp/carillon-evil", b"x")])
    ipa("absolute", extra=[("/etc/carillon-evil", b"x")])
    # A bomb: a member that claims far more than deflate can hold (its sizes patched in the directory).
    bomb = ipa("bomb")
    with open(bomb, "r+b") as f:
        data = bytearray(f.read())
        marker = b"Payload/Carillon.app/PkgInfo"
        at = data.rfind(b"PK\x01\x02", 0, data.rfind(marker) + 1)
        struct.pack_into("<I", data, at + 24, 0xFFFFFFF0)  # uncompressed size: 4 GiB from a few bytes
        f.seek(0)
        f.write(data)
    # Overlapping members: two directory entries pointing at the same local header.
    overlap = ipa("overlap")
    with open(overlap, "r+b") as f:
        data = bytearray(f.read())
        first = data.find(b"PK\x01\x02")
        second = data.find(b"PK\x01\x02", first + 4)
        third = data.find(b"PK\x01\x02", second + 4)
        offset = struct.unpack_from("<I", data, third + 42)[0]
        last = data.rfind(b"PK\x01\x02")
        struct.pack_into("<I", data, last + 42, offset)
        f.seek(0)
        f.write(data)
    # Truncated: the last quarter of the file gone (the directory with it).
    truncated = ipa("truncated")
    with open(truncated, "r+b") as f:
        size = os.path.getsize(truncated)
        f.truncate(size - max(200, size // 4))
    # An Info.plist nested 10,000 deep.
    ipa("deep-plist", change=lambda c: c.__setitem__("Info.plist", b"<plist>" + b"<array>" * 10000 + b"</array>" * 10000 + b"</plist>"))
    # A binary plist whose top array contains itself.
    cycle = bytearray(b"bplist00")
    cycle += bytes([0xA1, 0x00])  # object 0: an array of one, referring to object 0
    table = len(cycle)
    cycle += bytes([8])
    cycle += b"\0" * 6 + bytes([1, 1]) + struct.pack(">QQQ", 1, 0, table)
    ipa("plist-cycle", change=lambda c: c.__setitem__("Info.plist", bytes(cycle)))
    # Executables whose load commands lie about their sizes.
    app = healthy()

    def lying(kind):
        def change(content):
            spec = dict(app["app"])
            content["Carillon"] = thin_macho(spec, entitlements(spec), lie=kind)
        return change
    ipa("lying-load-command", change=lying("load-command"))
    ipa("lying-signature", change=lying("signature"))
    return written


def big_ipa(out, megabytes, signer):
    """The benchmark's .ipa: a healthy app plus one large stored asset (incompressible bytes)."""
    files = app_files(healthy(), signer)
    path = os.path.join(out, "big.ipa")
    write_zip(path, files, "Payload/Carillon.app/")
    chunk = hashlib.sha256(b"carillon").digest() * 2048  # 64 KiB
    with zipfile.ZipFile(path, "a", allowZip64=True) as archive:
        info = zipfile.ZipInfo("Payload/Carillon.app/Assets.car", date_time=(2026, 6, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED
        with archive.open(info, "w", force_zip64=True) as member:
            written = 0
            block = bytearray(chunk)
            while written < megabytes << 20:
                struct.pack_into("<Q", block, 0, written)
                member.write(block)
                written += len(block)
    return path


def fuzz_seeds(out, signer):
    """Small seeds for the readers' fuzz targets (TestAssets/Fuzz/Corpus/<target>/): what the apps are made of,
    at a size libFuzzer explores quickly."""
    spec = target("service", NSE_ID, "S")
    small = {"CFBundleIdentifier": NSE_ID, "CarillonAppGroup": GROUP, "N": [1, 2.5, True, b"\x00\x01", "é"],
             "D": datetime.datetime(2027, 6, 1), "NSExtension": {"NSExtensionPointIdentifier": "com.apple.usernotifications.service"}}
    seeds = {
        "FuzzPropertyList/info.xml": plist_bytes(small, "xml"),
        "FuzzPropertyList/info.bplist": plist_bytes(small, "binary"),
        "FuzzPropertyList/entitlements.xml": plist_bytes(entitlements(spec), "xml"),
        "FuzzProvisioningProfile/profile-der.mobileprovision": signer.sign(plist_bytes({"TeamIdentifier": [TEAM], "Entitlements": {
            "application-identifier": TEAM + ".*"}, "ExpirationDate": iso("2027-06-01T00:00:00Z")}, "xml"), False),
        "FuzzProvisioningProfile/profile-ber.mobileprovision": signer.sign(plist_bytes({"TeamIdentifier": [TEAM]}, "xml"), True),
        "FuzzProvisioningProfile/entitlements.der": der_entitlements({"a": [True, 7, "g"], "b": {}}),
    }

    def tiny_macho(options):
        spec = target("service", "x", "S", **options)
        return thin_macho(spec, {"a": True}, code_size=512)
    seeds["FuzzMachO/thin-xml"] = tiny_macho({})
    seeds["FuzzMachO/thin-der-encrypted"] = tiny_macho({"entitlements_form": "der", "encrypted": True})
    seeds["FuzzMachO/unsigned"] = tiny_macho({"signed": False})
    fat = struct.pack(">II", 0xCAFEBABE, 2)
    slices = [tiny_macho({}), tiny_macho({"entitlements_form": "both"})]
    offset = 64
    layout = []
    for index, data in enumerate(slices):
        fat += struct.pack(">iiIII", CPU_ARMV7 if index == 0 else CPU_ARM64, 0, offset, len(data), 2)
        layout.append((offset, data))
        offset += len(data)
    for offset, data in layout:
        fat += b"\0" * (offset - len(fat)) + data
    seeds["FuzzMachO/fat"] = fat
    seeds["FuzzMachO/be32"] = struct.pack(">IiiIIIII", 0xFEEDFACE, 12, 0, 2, 1, 16, 0, 0)[:28] + struct.pack(">IIII", 0x1D, 16, 44, 0)
    members = {"a/Info.plist": plist_bytes(small, "binary"), "a/empty": b"", "a/text": b"carillon " * 20}
    zip_path = os.path.join(out, "FuzzZipArchive", "small.zip")
    os.makedirs(os.path.dirname(zip_path), exist_ok=True)
    write_zip(zip_path, members, "")
    with zipfile.ZipFile(os.path.join(out, "FuzzZipArchive", "stored.zip"), "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("x/y", b"stored bytes")
    write_zip64(os.path.join(out, "FuzzZipArchive", "zip64.zip"), {"z": b"zip64 " * 10}, "")
    for name, data in seeds.items():
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--only", nargs="*", help="write only these apps (and no hostile archives unless named)")
    parser.add_argument("--big-ipa", type=int, metavar="MB", help="write only OUT/big.ipa with an asset of MB mebibytes")
    parser.add_argument("--fuzz-seeds", action="store_true", help="write only the fuzz targets' seeds, OUT/<target>/…")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="carillon-apps-")
    try:
        signer = Signer(scratch)
        shutil.copy(signer.cert, os.path.join(arguments.out, "profile-signer.pem"))
        if arguments.fuzz_seeds:
            fuzz_seeds(arguments.out, signer)
            return
        if arguments.big_ipa:
            print(big_ipa(arguments.out, arguments.big_ipa, signer))
            return
        manifest = {"apps": {}, "hostile": {}}
        for name, model, expect, status in APPS:
            if arguments.only and name not in arguments.only:
                continue
            forms = write_app(arguments.out, name, model, signer)
            manifest["apps"][name] = {"forms": forms, "expect": expect, "exit": status}
        if not arguments.only or "hostile" in arguments.only:
            manifest["hostile"] = hostile(arguments.out, signer)
        with open(os.path.join(arguments.out, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
