/// A built app that cannot be read, or is not an app: the member at fault (a path inside the input),
/// where one is, and what is wrong, as one sentence.
package struct AppReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The member at fault: a path inside the archive or directory given; nil when the input as a whole is.
    package var member: String?
    /// What is wrong.
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
