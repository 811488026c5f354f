// swift-tools-version:6.0
// Fuzz targets for carillon-nse's parsers of untrusted input (see README.md). A package of its own, so
// that the root package's `swift build` and `swift test` never see libFuzzer entry points.
//
// Build (release, libFuzzer and AddressSanitizer, as smoke.sh and oss-fuzz/build.sh do; the flags are
// fuzz_build_flags in targets.sh):
//   swift build -c release --sanitize=fuzzer -Xswiftc -enable-testing -Xswiftc -sanitize=fuzzer,address
import PackageDescription

/// One libFuzzer target: `Sources/<name>/<name>.swift` defines `LLVMFuzzerTestOneInput`.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "CarillonFuzzChecks", package: "main"), .product(name: "CarillonExtensionCore", package: "main"),
        ] + dependencies
    )
}

let package = Package(
    name: "carillon-nse-fuzz",
    dependencies: [
        .package(name: "main", path: "../..")
    ],
    targets: [
        fuzzTarget("FuzzPayload"),
        fuzzTarget("FuzzJSON"),
        fuzzTarget("FuzzImageVerifier"),
        fuzzTarget("FuzzImageStream"),
        fuzzTarget("FuzzReceipt"),
        fuzzTarget("FuzzEventQueueFile"),
        fuzzTarget("FuzzEventLines"),
        fuzzTarget("FuzzHARImport"),
        fuzzTarget("FuzzAPIAnswers"),
        fuzzTarget("FuzzResultBundle"),
        // The readers of a built app (doctor, --app).
        fuzzTarget("FuzzPropertyList"),
        fuzzTarget("FuzzZipArchive"),
        fuzzTarget("FuzzMachO"),
        fuzzTarget("FuzzProvisioningProfile"),
        fuzzTarget("FuzzArguments", [.product(name: "CarillonCLI", package: "main")]),
        // The differential target: the tool's image verdict against libpng, libjpeg-turbo and giflib
        // (Debian libpng-dev, libjpeg62-turbo-dev, libgif-dev; smoke.sh installs them). Only this package
        // links them, never the main one.
        .target(
            name: "CReferenceDecoders",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("gif")]
        ),
        fuzzTarget("FuzzImageDecoders", ["CReferenceDecoders"]),
    ],
    swiftLanguageModes: [.v6]
)
