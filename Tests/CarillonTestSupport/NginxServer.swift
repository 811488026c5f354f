import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx on 127.0.0.1 speaking HTTP/2 by ALPN (Debian's `nginx-light`), with the test server's
/// certificates, so that the same `caFile` trusts both: the HTTP/2 side of the download tests.
///
/// One process (`master_process off`, which ignores SIGTERM: the supervisor kills it after 2 s), started by a small Python supervisor whose standard input is a
/// pipe held here: when this test process ends the pipe closes and it stops nginx, as ``TestServer`` stops.
/// What it serves (under `https://127.0.0.1:PORT`):
/// - `/sample.jpg`, `/sample.png`, `/static.gif`, `/animated.gif`: `TestAssets/Images/` as they are;
/// - `/gz/…`: the same files with nginx's own `gzip on` (no `Content-Length`: the length is unknown);
/// - `/r/N`: a chain of N 302 redirects ending at `/sample.png`;
/// - `/slow/sample.png`: sent at 50 bytes a second (`limit_rate`);
/// - anything else: nginx's 404 page.
/// ``rsaKeyExchangePort``: a server block offering TLS 1.2 with RSA key exchange only.
public final class NginxServer: Sendable {
    public let port: Int
    public let rsaKeyExchangePort: Int
    public let caFile: String
    private let process: Process
    private let input: Pipe

    /// The server for this test process, started on first use beside ``TestServer/shared``; where nginx
    /// is not installed, every use throws ``RequiredPackage/Missing`` naming `nginx-light`.
    public static func shared() throws -> NginxServer { try started.get() }

    private static let started: Result<NginxServer, any Error> = Result { try NginxServer(certificatesOf: TestServer.shared) }

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts nginx with `server`'s leaf (and its RSA leaf, made in the background at its start-up).
    public init(certificatesOf server: TestServer) throws {
        let binary = try RequiredPackage.command("nginx", package: "nginx-light")
        let state = URL(fileURLWithPath: server.caFile).deletingLastPathComponent().path
        caFile = server.caFile
        let rsaLeaf = state + "/rsa-leaf.pem"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: rsaLeaf) {
            guard Date() < deadline else { throw StartError(description: "the test server's RSA leaf never appeared in \(state)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let prefix = NSTemporaryDirectory() + "carillon-nginx-\(getpid())-\(UUID().uuidString.prefix(8))"
        let root = prefix + "/root"
        for directory in [prefix + "/tmp", root + "/gz"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        for name in ["sample.jpg", "sample.png", "static.gif", "animated.gif"] {
            for target in [root + "/" + name, root + "/gz/" + name] {
                try FileManager.default.copyItem(atPath: Paths.testAssets("Images/" + name), toPath: target)
            }
        }
        port = try Self.freePort()
        rsaKeyExchangePort = try Self.freePort()
        let configuration = Self.configuration(prefix: prefix, root: root, state: state, port: port, rsaPort: rsaKeyExchangePort)
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A Python supervisor starts nginx without this process's other descriptors (close_fds), waits for
        // its standard input to close, then stops it: nginx must not hold the pipe's write end open.
        process.arguments = [
            "python3", "-c",
            "import shutil,subprocess,sys\n"
                + "log=open(sys.argv[2]+'/stderr.log','w')\n"
                + "p=subprocess.Popen([sys.argv[1],'-p',sys.argv[2],'-c',sys.argv[2]+'/nginx.conf'],stdin=subprocess.DEVNULL,stdout=log,stderr=log)\n"
                + "sys.stdin.buffer.read()\n"
                + "p.terminate()\n"
                + "try: p.wait(2)\n"
                + "except subprocess.TimeoutExpired: p.kill(); p.wait()\n"
                + "shutil.rmtree(sys.argv[2], ignore_errors=True)\n",
            binary, prefix,
        ]
        input = Pipe()
        process.standardInput = input
        // Never this process's own output: `swift test` reads it to its end.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for listener in [port, rsaKeyExchangePort] {
            while !Self.accepts(listener) {
                guard Date() < deadline, process.isRunning else {
                    let log = (try? String(contentsOfFile: prefix + "/stderr.log", encoding: .utf8)) ?? ""
                    throw StartError(description: "nginx did not start: \(log)")
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// `https://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> String { "https://127.0.0.1:\(port)" + path }

    static func configuration(prefix: String, root: String, state: String, port: Int, rsaPort: Int) -> String {
        let redirects = (1...8).map { hop in
            "        location = /r/\(hop) { return 302 \(hop == 1 ? "/sample.png" : "/r/\(hop - 1)"); }"
        }.joined(separator: "\n")
        return """
            daemon off;
            master_process off;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/tmp;
                proxy_temp_path \(prefix)/tmp;
                fastcgi_temp_path \(prefix)/tmp;
                uwsgi_temp_path \(prefix)/tmp;
                scgi_temp_path \(prefix)/tmp;
                types { image/jpeg jpg; image/png png; image/gif gif; }
                default_type application/octet-stream;
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(state)/leaf.pem;
                    ssl_certificate_key \(state)/leaf.key;
                    ssl_protocols TLSv1.2 TLSv1.3;
                    root \(root);
                    location /gz/ { gzip on; gzip_types image/png image/jpeg image/gif; gzip_min_length 1; }
                    location /slow/ { alias \(root)/; limit_rate 50; }
            \(redirects)
                }
                server {
                    listen 127.0.0.1:\(rsaPort) ssl http2;
                    ssl_certificate \(state)/rsa-leaf.pem;
                    ssl_certificate_key \(state)/rsa-leaf.key;
                    ssl_protocols TLSv1.2;
                    ssl_ciphers AES128-GCM-SHA256:AES256-GCM-SHA384;
                    root \(root);
                }
            }

            """
    }

    /// A port that was free on 127.0.0.1 a moment ago (nginx cannot report one it chose itself).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw StartError(description: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
