import Testing

@testable import CarillonCLI

/// Which names under $TMPDIR are run directories, and whose: the sweep removes only those whose process
/// is gone, so a name it misreads would cost another run its images.
@Suite struct AbandonedRunDirectoriesTests {
    @Test(
        arguments: [
            ("carillon-nse-run-25944-1-31ndu9ftiywrd", Int32(25944)),
            ("carillon-nse-run-1-1-a", 1),
            ("carillon-nse-run-0-1-a", nil),
            ("carillon-nse-run--5-1-a", nil),
            ("carillon-nse-run-abc-1-a", nil),
            ("carillon-nse-run-25944", nil),
            ("carillon-nse-run-", nil),
            ("carillon-nse-attachments", nil),
            ("other-25944-1-a", nil),
            ("carillon-nse-run-99999999999-1-a", nil),
        ] as [(String, Int32?)])
    func readsTheProcessIDOfARunDirectorysName(name: String, expected: Int32?) {
        #expect(AbandonedRunDirectories.processID(ofName: name) == expected)
    }
}
