/// One ASN.1 element read from BER (DER is BER with one encoding per value): its tag and where its
/// content lies. Apple's provisioning profiles use BER's indefinite lengths (`0x80` … `00 00`) and
/// octet strings cut into pieces, so both are read; every length is checked against what is left.
package struct BERElement: Sendable, Equatable {
    /// 0 universal, 1 application, 2 context-specific, 3 private.
    package var tagClass: UInt8
    package var constructed: Bool
    package var tagNumber: UInt32
    /// Where the content starts in the buffer.
    package var contentStart: Int
    /// Where the content ends (for an indefinite length, before its end-of-contents octets).
    package var contentEnd: Int
    /// Where the element ends, end-of-contents included.
    package var end: Int

    /// The universal tags this reader names.
    package enum Universal {
        static let boolean: UInt32 = 1
        static let integer: UInt32 = 2
        static let octetString: UInt32 = 4
        static let objectIdentifier: UInt32 = 6
        static let utf8String: UInt32 = 12
        static let sequence: UInt32 = 16
        static let set: UInt32 = 17
    }

    /// Whether it is universal tag `number`.
    package func isUniversal(_ number: UInt32) -> Bool { tagClass == 0 && tagNumber == number }

    /// Whether it is context-specific tag `number`.
    package func isContext(_ number: UInt32) -> Bool { tagClass == 2 && tagNumber == number }
}
