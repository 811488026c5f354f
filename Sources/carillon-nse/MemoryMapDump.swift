/// For the benchmark's memory breakdown (TestAssets/Bench, row 3): when `CARILLON_SMAPS_DUMP` names a file,
/// the process's `/proc/self/status`, `smaps_rollup` and `smaps` as they are at exit, each after a line
/// `==> /proc/self/<name> <==`. Unset (every ordinary run), it is one `getenv`. Failures are ignored: it is
/// a measurement, never part of what a run does.
enum MemoryMapDump {
    static func writeIfAsked() {
        guard let target = system_getenv("CARILLON_SMAPS_DUMP") else { return }
        let output = system_open(target, _O_WRONLY | _O_CREAT | _O_TRUNC | _O_CLOEXEC, 0o600)
        guard output >= 0 else { return }
        defer { system_close(output) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        for name in ["status", "smaps_rollup", "smaps"] {
            let header = Array("==> /proc/self/\(name) <==\n".utf8)
            _ = header.withUnsafeBytes { system_write(output, $0.baseAddress, $0.count) }
            let input = system_open("/proc/self/\(name)", _O_RDONLY | _O_CLOEXEC)
            guard input >= 0 else { continue }
            while case let count = buffer.withUnsafeMutableBytes({ system_read(input, $0.baseAddress, $0.count) }), count > 0 {
                _ = buffer.withUnsafeBytes { system_write(output, $0.baseAddress, count) }
            }
            system_close(input)
        }
    }
}
