@_spi(Tooling) import CarillonExtensionCore

/// `process --record`'s options, declared once (SPEC §9).
enum RecordOptions {
    static let record = Option.path(
        "--record", "DIR", help: "Also write each payload's download as a HAR 1.2 file in DIR (opens in Chrome or Proxyman)."
    ).discussing(
        "One DIR/<payload>.har per payload that downloaded, with the payload, the options, the verdict, each connection's TLS"
            + " facts and certificate chain, each request as sent, the raw heads, and the body as received when it differs from"
            + " the decoded one; secrets are redacted. DIR is created 0700, each file 0600. DIR"
            + " inside --container or --attachments is a usage error (64). The line gains 'recording'.")
    static let inline = Option.positiveInteger(
        "--record-inline", default: 2_097_152, help: "Largest body kept inside the HAR; a larger one goes to DIR/bodies/."
    ).discussing(
        "A body over it is written to DIR/bodies/<sha256>.<ext> as it arrives, and the entry names it (content._file); the"
            + " bytes as received, when kept, likewise as DIR/bodies/<sha256>.wire.")
    static let keepSecrets = Option.flag(
        "--record-keep-secrets", help: "Keep Authorization, Cookie, Set-Cookie, signed-URL parameters and alert text in recordings."
    ).discussing("Says so on standard error. Without it every such value is replaced by [redacted:<8 hex of its SHA-256>].")

    static let specs: [OptionSpec] = [record.spec, inline.spec, keepSecrets.spec]
}
