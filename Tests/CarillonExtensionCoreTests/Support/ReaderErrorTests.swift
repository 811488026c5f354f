import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The strangers' files' readers share one error shape: a member where one is at fault, the problem, and a
/// code naming the reader; each reader still throws its own type.
@Suite struct ReaderErrorTests {
    @Test func eachReaderHasItsCode() {
        let codes: [ReaderCode] = [
            ZipError("x").code, PropertyListError("x").code, MachOError("x").code, BERError("x").code, ProvisioningError("x").code,
            AppReadError("x").code,
        ]
        #expect(codes == [.zip, .propertyList, .machO, .ber, .provisioningProfile, .app])
        #expect(Set(codes.map(\.rawValue)).count == codes.count)
    }

    @Test(
        arguments: [
            (nil, "not a zip archive, or truncated", "not a zip archive, or truncated"),
            ("Payload/A.app/Info.plist", "missing", "member 'Payload/A.app/Info.plist': missing"),
        ] as [(String?, String, String)])
    func theSentenceNamesTheMemberWhereOneIsAtFault(member: String?, problem: String, sentence: String) {
        let error = ZipError(member: member, problem)
        #expect(error.description == sentence && error.message == sentence)
        #expect(AppReadError(member: member, problem).description == sentence)
    }

    /// A caller tells the readers apart by type: an error of one is never caught as another's.
    @Test func theTypesStayApart() {
        func throwsMachO() throws(MachOError) { throw MachOError("load command 1 says 65536 bytes") }
        var caughtAsZip = false
        do {
            try throwsMachO()
        } catch {
            caughtAsZip = (error as Any) is ZipError
        }
        #expect(!caughtAsZip)
    }
}
