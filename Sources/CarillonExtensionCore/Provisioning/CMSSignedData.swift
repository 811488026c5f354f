/// A CMS (PKCS #7) SignedData envelope walked to the content it signs (RFC 5652 §5): ContentInfo →
/// SignedData → encapContentInfo → eContent. The signature is not verified: this is where a
/// provisioning profile's property list is, not a judgement of who signed it.
package enum CMSSignedData {
    /// `id-signedData`.
    static let signedDataType = "1.2.840.113549.1.7.2"
    /// `id-data`.
    static let dataType = "1.2.840.113549.1.7.1"

    /// The signed content of `bytes`, at most `limit` bytes.
    ///
    /// - Throws: ``BERError`` saying which part of the envelope is missing or malformed.
    package static func content(of bytes: [UInt8], limit: Int) throws(BERError) -> [UInt8] {
        let reader = BERReader(bytes)
        let contentInfo = try reader.element(at: 0)
        guard contentInfo.isUniversal(BERElement.Universal.sequence), contentInfo.constructed else {
            throw BERError("not a CMS envelope: no ContentInfo SEQUENCE at the start")
        }
        let info = try reader.children(of: contentInfo)
        guard info.count >= 2, try reader.objectIdentifier(info[0]) == signedDataType, info[1].isContext(0), info[1].constructed else {
            throw BERError("a CMS envelope that is not SignedData (\(signedDataType))")
        }
        guard let signedData = try reader.children(of: info[1]).first,
            signedData.isUniversal(BERElement.Universal.sequence), signedData.constructed
        else { throw BERError("a CMS SignedData that is not a SEQUENCE") }
        let fields = try reader.children(of: signedData)
        // version, digestAlgorithms, encapContentInfo, …
        guard fields.count >= 3, fields[0].isUniversal(BERElement.Universal.integer), fields[1].isUniversal(BERElement.Universal.set),
            fields[2].isUniversal(BERElement.Universal.sequence), fields[2].constructed
        else { throw BERError("a CMS SignedData without its version, digest algorithms and encapsulated content") }
        let encapsulated = try reader.children(of: fields[2])
        guard let type = encapsulated.first else { throw BERError("a CMS encapsulated content without its type") }
        guard try reader.objectIdentifier(type) == dataType else {
            throw BERError("a CMS encapsulated content that is not data (\(dataType))")
        }
        guard encapsulated.count >= 2, encapsulated[1].isContext(0), encapsulated[1].constructed else {
            throw BERError("a detached CMS signature: the envelope holds no content")
        }
        guard let octets = try reader.children(of: encapsulated[1]).first else { throw BERError("a CMS eContent [0] that is empty") }
        return try reader.octets(octets, limit: limit)
    }
}
