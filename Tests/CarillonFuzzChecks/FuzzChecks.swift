// The fuzz targets' invariant checks: one function per target, each throwing FuzzFailure for a broken
// invariant. A target of its own, used by the fuzz package (TestAssets/Fuzz) and by the regression test
// that replays every saved input (Tests/CarillonExtensionCoreTests/Fuzz), so that both check exactly
// the same things. See TestAssets/Fuzz/README.md.

/// A broken invariant: what a fuzz target traps on and what the regression test reports.
public struct FuzzFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The invariants of every fuzz target, one function per target. Each throws ``FuzzFailure`` for a broken
/// invariant; a crash inside the code under test is a crash in both the fuzzer and the test.
public enum FuzzChecks {
    /// The fuzz targets, which are also the folder names under `Corpus/` and `Regressions/`.
    /// (`FuzzImageDecoders` compares with the reference decoders, which only the fuzz package links: its
    /// saved inputs are replayed here through the `FuzzImageVerifier` checks, and against the decoders by
    /// smoke.sh.)
    public static let targets = [
        "FuzzPayload", "FuzzImageVerifier", "FuzzImageDecoders", "FuzzReceipt", "FuzzEventQueueFile", "FuzzArguments", "FuzzHARImport",
        "FuzzAPIAnswers", "FuzzResultBundle", "FuzzPropertyList", "FuzzZipArchive",
        "FuzzMachO", "FuzzProvisioningProfile",
    ]

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFailure) {
        if !condition { throw FuzzFailure(message: message()) }
    }
}
