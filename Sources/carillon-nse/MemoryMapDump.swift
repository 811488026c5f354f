#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// For the benchmark's memory breakdown (TestAssets/Bench, row 3): when `CARILLON_SMAPS_DUMP` names a file,
/// the process's `/proc/self/status`, `smaps_rollup` and `smaps` as they are at exit, each after a line
/// `==> /proc/self/<name> <==`. Unset (every ordinary run), it is one `getenv`. Failures are ignored: it is
/// a measurement, never part of what a run does.
enum MemoryMapDump {
    static func writeIfAsked() {
        guard let target = getenv("CARILLON_SMAPS_DUMP") else { return }
        let output = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { return }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        for name in ["status", "smaps_rollup", "smaps"] {
            let header = Array("==> /proc/self/\(name) <==\n".utf8)
            _ = header.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            let input = open("/proc/self/\(name)", O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { continue }
            while case let count = buffer.withUnsafeMutableBytes({ read(input, $0.baseAddress, $0.count) }), count > 0 {
                _ = buffer.withUnsafeBytes { write(output, $0.baseAddress, count) }
            }
            close(input)
        }
    }
}
