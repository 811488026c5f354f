/// A zip archive that cannot be read, or a member of it: the member's name where one is at fault, and
/// what is wrong, as one sentence.
package struct ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member at fault, as its name reads (bytes that are not UTF-8 escaped: ``FileName``); nil when
    /// the archive as a whole is.
    package var member: String?
    /// What is wrong, e.g. "a name that climbs out of the archive ('..')".
    package var problem: String

    package init(member: String? = nil, _ problem: String) {
        self.member = member
        self.problem = problem
    }

    package var description: String {
        guard let member else { return problem }
        return "member \(Quoting.single(member)): \(problem)"
    }
}
