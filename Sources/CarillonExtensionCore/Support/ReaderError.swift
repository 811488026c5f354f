/// A file from a stranger that one of the core's bounded readers cannot read, or that is not what it
/// must be: the member at fault (a path inside an archive or a directory) where one is, and what is
/// wrong, as one sentence. One shape for every reader — the zip archive, property lists, Mach-O, BER,
/// provisioning profiles and the built app — each throwing its own (`ZipError` is
/// `ReaderError<ZipReading>`), so that a caller that must tell them apart does so by type, and ``code``
/// says which as a value.
package struct ReaderError<Reader: ReaderKind>: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member at fault; nil when the file as a whole is.
    package var member: String?
    /// What is wrong, e.g. "a name that climbs out of the archive ('..')", "binary property list: object 3
    /// refers to object 9 of 4".
    package var problem: String

    package init(member: String? = nil, _ problem: String) {
        self.member = member
        self.problem = problem
    }

    /// Which reader could not read the file.
    package var code: ReaderCode { Reader.code }

    /// The sentence a caller passes on: the problem, after the member where one is at fault.
    package var message: String { description }

    package var description: String {
        guard let member else { return problem }
        return "member \(Quoting.single(member)): \(problem)"
    }
}

/// The readers of strangers' files, as ``ReaderError/code`` names them.
package enum ReaderCode: String, Sendable, Equatable {
    case zip
    case propertyList = "property-list"
    case machO = "mach-o"
    case ber
    case provisioningProfile = "provisioning-profile"
    case app
}

/// A reader whose errors are ``ReaderError``s of its own type.
package protocol ReaderKind: Sendable {
    static var code: ReaderCode { get }
}
