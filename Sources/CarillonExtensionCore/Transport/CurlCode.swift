/// The libcurl codes that classification names (values from curl.h, stable across versions); every
/// other code — DNS, refused, reset, partial file, nothing received — is `network`.
enum CurlCode {
    static let ok: Int32 = 0
    static let unsupportedProtocol: Int32 = 1
    static let urlMalformed: Int32 = 3
    static let weirdServerReply: Int32 = 8
    static let httpReturnedError: Int32 = 22
    static let writeError: Int32 = 23
    static let operationTimedOut: Int32 = 28
    static let sslConnectError: Int32 = 35
    static let abortedByCallback: Int32 = 42
    static let tooManyRedirects: Int32 = 47
    static let sslEngineNotFound: Int32 = 53
    static let sslEngineSetFailed: Int32 = 54
    static let receiveError: Int32 = 56
    static let sslCertProblem: Int32 = 58
    static let sslCipher: Int32 = 59
    static let peerFailedVerification: Int32 = 60
    static let badContentEncoding: Int32 = 61
    static let fileSizeExceeded: Int32 = 63
    static let useSSLFailed: Int32 = 64
    static let sslEngineInitFailed: Int32 = 66
    static let sslCACertBadFile: Int32 = 77
    static let sslShutdownFailed: Int32 = 80
    static let sslCRLBadFile: Int32 = 82
    static let sslIssuerError: Int32 = 83
    static let sslPinnedPublicKeyMismatch: Int32 = 90
    static let sslInvalidCertStatus: Int32 = 91
    static let sslClientCert: Int32 = 98

    static let tlsCodes: Set<Int32> = [
        sslConnectError, sslEngineNotFound, sslEngineSetFailed, sslCertProblem, sslCipher, peerFailedVerification,
        useSSLFailed, sslEngineInitFailed, sslCACertBadFile, sslShutdownFailed, sslCRLBadFile, sslIssuerError,
        sslPinnedPublicKeyMismatch, sslInvalidCertStatus, sslClientCert,
    ]
}
