import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Downloads one URL at a time over HTTPS with libcurl, streaming the body into a file descriptor and
/// through ``ImageStreamVerifier``.
///
/// The only owner of libcurl handles in the project: every C detail stays in this file. One downloader
/// serves one thread at a time; reusing it for the next download reuses its connections and TLS
/// sessions (the multi handle holds the connection cache).
///
/// Every download is HTTPS-only on the first request and on each redirect, follows at most
/// ``DownloadLimits/maximumRedirects`` redirects, always verifies the certificate and host name, runs
/// within the time budget, refuses an announced `Content-Length` over the cap before the body
/// (`CURLOPT_MAXFILESIZE_LARGE`) and stops any other body the moment it passes the cap (the write
/// callback, because libcurl 7.88 does not apply the size option to chunked bodies). Compression is
/// never requested, so libcurl never decodes: an encoded body is refused, not inflated.
final class CurlDownloader {
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let configuration: DownloadConfiguration
    /// libcurl keeps this pointer for the handle's life (`CURLOPT_ERRORBUFFER`), so it is allocated
    /// here rather than borrowed from an array for the length of a closure.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = Int(CURL_ERROR_SIZE) + 1

    /// Creates the libcurl handles.
    ///
    /// - Throws: an ``Outcome`` with ``Reason/network`` when libcurl cannot create a handle.
    init(configuration: DownloadConfiguration) throws(Outcome) {
        _ = CurlDownloader.globalInitialization
        guard let easy = curl_easy_init() else { throw Outcome(.network, "curl_easy_init failed") }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            throw Outcome(.network, "curl_multi_init failed")
        }
        self.easy = easy
        self.multi = multi
        self.configuration = configuration
        errorBuffer = .allocate(capacity: CurlDownloader.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: CurlDownloader.errorBufferSize)
        setupFailure = CurlDownloader.configure(easy, configuration, errorBuffer: errorBuffer)
    }

    /// An option libcurl refused when the handle was set up, reported by every download.
    private var setupFailure: (code: Int32, message: String)?

    private static func check(_ option: CURLoption, _ result: CURLcode) -> (code: Int32, message: String)? {
        guard result != CURLE_OK else { return nil }
        let message = String(cString: curl_easy_strerror(result))
        return (Int32(result.rawValue), "setting option \(option.rawValue) failed: \(message)")
    }

    /// Sets the options every download of this handle shares, once: they stay set across transfers
    /// (the handle is never reset, which also keeps libcurl's receive buffer instead of reallocating it).
    private static func configure(
        _ easy: UnsafeMutableRawPointer, _ configuration: DownloadConfiguration, errorBuffer: UnsafeMutablePointer<CChar>
    ) -> (code: Int32, message: String)? {
        let limits = configuration.limits
        var options: [(CURLoption, CURLcode)] = [
            (CURLOPT_PROTOCOLS_STR, carillon_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "https")),
            (CURLOPT_REDIR_PROTOCOLS_STR, carillon_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "https")),
            (CURLOPT_FOLLOWLOCATION, carillon_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)),
            // libcurl 7.88's default is unlimited: always set it.
            (CURLOPT_MAXREDIRS, carillon_easy_setopt_long(easy, CURLOPT_MAXREDIRS, limits.maximumRedirects)),
            (CURLOPT_SSL_VERIFYPEER, carillon_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)),
            (CURLOPT_SSL_VERIFYHOST, carillon_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)),
            (CURLOPT_TIMEOUT_MS, carillon_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, limits.budgetMilliseconds)),
            (CURLOPT_MAXFILESIZE_LARGE, carillon_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes))),
            (CURLOPT_NOSIGNAL, carillon_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)),
            // The curl tool's receive buffer (100 KiB) rather than libcurl's 16 KiB default: a sixth of the
            // write callbacks and write(2) calls for a large image, for 100 KiB per downloader.
            (CURLOPT_BUFFERSIZE, carillon_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 100 * 1024)),
            (CURLOPT_USERAGENT, carillon_easy_setopt_string(easy, CURLOPT_USERAGENT, "carillon-nse/\(CarillonVersion.current)")),
            (CURLOPT_ERRORBUFFER, carillon_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)),
            (CURLOPT_WRITEFUNCTION, carillon_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userData in
                let context = Unmanaged<CurlDownloader.TransferContext>.fromOpaque(userData!).takeUnretainedValue()
                return CurlDownloader.write(data, size * count, context)
            }),
            // No CURLOPT_ACCEPT_ENCODING: setting it (even to "identity") turns decoding on, and the size
            // option would then compare against the compressed length.
        ]
        if let caFile = configuration.extraCAFile {
            // CAINFO replaces only the bundle file; the system's hashed CA directory (CAPATH) stays, so
            // this adds trust rather than replacing it.
            options.append((CURLOPT_CAINFO, carillon_easy_setopt_string(easy, CURLOPT_CAINFO, caFile)))
        }
        for (option, result) in options {
            if let failure = check(option, result) { return failure }
        }
        return nil
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// `curl_global_init`, once per process, before any handle (libcurl asks for it even where it is
    /// thread-safe). A static `let` is initialised once, on first use, by the Swift runtime.
    private static let globalInitialization: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// The libcurl version and TLS backend, e.g. "libcurl/7.88.1 OpenSSL/3.0.17".
    static var versionDescription: String {
        String(cString: curl_version())
    }

    /// State shared with the C callbacks during one transfer.
    private final class TransferContext {
        let descriptor: Int32
        let cap: Int
        let easy: UnsafeMutableRawPointer
        var bytesWritten = 0
        var checkedResponse = false
        var stoppedAtCap = false
        var stoppedForStatus = false
        var stoppedForEncoding = false
        var writeErrno: Int32?
        /// Decides the image type from the body as it is written, so that it is never read back.
        var image = ImageStreamVerifier()

        init(descriptor: Int32, cap: Int, easy: UnsafeMutableRawPointer) {
            self.descriptor = descriptor
            self.cap = cap
            self.easy = easy
        }
    }

    /// Downloads `url`, writing the body to `descriptor`.
    ///
    /// Returns when the transfer ends, fails, runs out of budget, or `cancellation` fires.
    func download(_ url: ImageURL, into descriptor: Int32, cancellation: DownloadCancellation) -> TransferReport {
        let limits = configuration.limits
        errorBuffer.update(repeating: 0, count: CurlDownloader.errorBufferSize)
        let context = TransferContext(descriptor: descriptor, cap: limits.maximumBytes, easy: easy)
        var failure = setupFailure
        if failure == nil {
            failure = CurlDownloader.check(CURLOPT_URL, carillon_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString))
                ?? CurlDownloader.check(CURLOPT_WRITEDATA, carillon_easy_setopt_pointer(
                    easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(context).toOpaque()))
        }
        if let failure {
            return TransferReport(
                curlCode: failure.code, curlMessage: failure.message, status: 0, contentEncoding: nil, bytesWritten: 0,
                cap: limits.maximumBytes)
        }

        let (code, cancelled) = perform(cancellation)
        return withExtendedLifetime(context) {
            var status = 0
            carillon_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var message = String(cString: curl_easy_strerror(code))
            let detail = String(cString: errorBuffer)
            if !detail.isEmpty && detail != message { message += " (\(detail))" }
            return TransferReport(
                curlCode: Int32(code.rawValue), curlMessage: message, status: status,
                contentEncoding: CurlDownloader.contentEncoding(easy), bytesWritten: context.bytesWritten,
                stoppedAtCap: context.stoppedAtCap, stoppedForStatus: context.stoppedForStatus,
                stoppedForEncoding: context.stoppedForEncoding, writeErrno: context.writeErrno,
                cancelled: cancelled, cap: limits.maximumBytes, image: context.image.finish())
        }
    }

    /// Runs the transfer in the multi handle until it ends or is cancelled.
    private func perform(_ cancellation: DownloadCancellation) -> (CURLcode, cancelled: Bool) {
        guard cancellation.attach(multi) else { return (CURLE_ABORTED_BY_CALLBACK, true) }
        defer { cancellation.detach() }
        curl_multi_add_handle(multi, easy)
        defer { curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while true {
            cancellation.fireIfDue()
            if cancellation.isCancelled { return (CURLE_ABORTED_BY_CALLBACK, true) }
            let performed = curl_multi_perform(multi, &running)
            if performed != CURLM_OK {
                return (CURLE_OUT_OF_MEMORY, false)
            }
            if running == 0 { break }
            // Wakes on socket activity, libcurl's own timers (the budget), curl_multi_wakeup, or the
            // cancellation's scheduled action.
            curl_multi_poll(multi, nil, 0, cancellation.waitMilliseconds(upTo: 1000), nil)
        }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE && message.pointee.easy_handle == easy {
                return (message.pointee.data.result, false)
            }
        }
        return (CURLE_OK, false)
    }

    /// The final response's `Content-Encoding` header, read with `curl_easy_header`.
    private static func contentEncoding(_ easy: UnsafeMutableRawPointer) -> String? {
        var header: UnsafeMutablePointer<curl_header>?
        let result = curl_easy_header(easy, "Content-Encoding", 0, UInt32(CURLH_HEADER), -1, &header)
        guard result == CURLHE_OK, let header, let value = header.pointee.value else { return nil }
        return String(cString: value)
    }

    /// The write callback: checks the response once before the first byte, enforces the cap, and
    /// writes to the file. Returning less than `count` makes libcurl stop with `CURLE_WRITE_ERROR`; the
    /// context's flags then say why.
    private static func write(_ data: UnsafeMutablePointer<CChar>?, _ count: Int, _ context: TransferContext) -> Int {
        if !context.checkedResponse {
            context.checkedResponse = true
            var status = 0
            carillon_easy_getinfo_long(context.easy, CURLINFO_RESPONSE_CODE, &status)
            if status != 200 {
                context.stoppedForStatus = true
                return 0
            }
            if TransferReport.isEncoded(contentEncoding(context.easy)) {
                context.stoppedForEncoding = true
                return 0
            }
        }
        guard count > 0, let data else { return count }
        if context.bytesWritten + count > context.cap {
            context.stoppedAtCap = true
            return 0
        }
        var offset = 0
        while offset < count {
            let written = Glibc.write(context.descriptor, data + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                context.writeErrno = errno
                return 0
            }
            offset += written
        }
        context.bytesWritten += count
        context.image.feed(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: count))
        return count
    }
}
