internal import CCurl

/// What only libcurl's debug callback sees, for a recording: the request head as sent
/// (`CURLINFO_HEADER_OUT`) and the body bytes as received, before any decoding (`CURLINFO_DATA_IN`).
///
/// The callback runs only while `CURLOPT_VERBOSE` is on, so both are set on a recording's image
/// downloaders alone (``CurlDownloader`` made with `recording`), never on the API client's handle nor
/// in a run that does not record. The callback replaces libcurl's own verbose output: nothing is
/// printed, everything else it is told (`CURLINFO_TEXT`, TLS records, the response head, which the
/// header callback already hands over) is ignored.
extension CurlDownloader {
    /// The options that hand what was sent and received to `context`'s tap (`CURLOPT_DEBUGFUNCTION`,
    /// `CURLOPT_DEBUGDATA`, `CURLOPT_VERBOSE`): the first libcurl refused, or nil.
    static func tapOptions(_ easy: UnsafeMutableRawPointer, context: TransferContext) -> (code: Int32, message: String)? {
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        return CurlSecureSetup.firstFailure([
            (
                CURLOPT_DEBUGFUNCTION,
                carillon_easy_setopt_debug_callback(easy) { _, type, data, size, userData in
                    guard let userData, let data, size > 0 else { return 0 }
                    let context = Unmanaged<CurlDownloader.TransferContext>.fromOpaque(userData).takeUnretainedValue()
                    context.heard(type, UnsafeRawBufferPointer(start: data, count: size))
                    return 0
                }
            ),
            (CURLOPT_DEBUGDATA, carillon_easy_setopt_pointer(easy, CURLOPT_DEBUGDATA, pointer)),
            (CURLOPT_VERBOSE, carillon_easy_setopt_long(easy, CURLOPT_VERBOSE, 1)),
        ])
    }
}

extension CurlDownloader.TransferContext {
    /// One call of the debug callback: the request head and the received body bytes go to the tap.
    fileprivate func heard(_ type: curl_infotype, _ bytes: UnsafeRawBufferPointer) {
        guard let tap = feed?.tap else { return }
        switch type {
        case CURLINFO_HEADER_OUT: tap.requestHead(bytes)
        case CURLINFO_DATA_IN: tap.wire(bytes)
        default: break
        }
    }
}
