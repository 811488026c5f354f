/// The host the request in progress is for, the ATS rule its server's chain broke, and whether its
/// server asked for a client certificate.
final class HandshakeState {
    var host = ""
    var brokenRule: String?
    /// Whether the verification callback keeps the certificates the server sent (while recording).
    var keepsChain = false
    /// The certificates the server sent in the handshake of the request in progress, leaf first, DER.
    var sentChain: [[UInt8]] = []
    /// Set to 1 by OpenSSL's client-certificate callback (C writes it, so it is plain memory).
    let clientCertificateFlag: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// The server sent a CertificateRequest during the handshake of the request in progress.
    var clientCertificateRequested: Bool {
        get { clientCertificateFlag.pointee != 0 }
        set { clientCertificateFlag.pointee = newValue ? 1 : 0 }
    }

    deinit { clientCertificateFlag.deallocate() }
}
