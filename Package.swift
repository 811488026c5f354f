// swift-tools-version:6.0
import PackageDescription

/// The package's directory, for the one linker flag that needs a path (the start-up symbol order).
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

/// Release builds put each function in a section of its own, so that the link's start-up order
/// (Sources/carillon-nse/startup.order) can move it: without it an object file's code is one section, which
/// the order moves whole, and a run touched most of the tool's 0.9 MiB of code (TestAssets/Bench/README.md).
let orderableFunctions: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))]

let package = Package(
    name: "carillon-nse",
    products: [
        .library(name: "CarillonExtensionCore", targets: ["CarillonExtensionCore"]),
        // The command line as a library too, so that the fuzz package (TestAssets/Fuzz) drives the real one.
        .library(name: "CarillonCLI", targets: ["CarillonCLI"]),
        .executable(name: "carillon-nse", targets: ["carillon-nse"]),
        // The fuzz targets' invariant checks, for the fuzz package (TestAssets/Fuzz) and the regression test.
        .library(name: "CarillonFuzzChecks", targets: ["CarillonFuzzChecks"]),
    ],
    targets: [
        // libcurl from the system (Debian: libcurl4-openssl-dev). Only Download/ and Transport/ (the API
        // client) import it, with `internal import`.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL from the system (Debian: libssl-dev), the library libcurl uses, for the App Transport
        // Security checks in the TLS handshake. Only Transport/ and the trace's TLS facts import it.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib from the system (Debian: zlib1g-dev), for CRC-32 where carry-less multiplication does not
        // apply (CCRC32), and to inflate compressed HAR files (only HAR/HARInflate.swift). libcurl loads
        // libz anyway, so it costs nothing at start-up.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // CRC-32 for the PNG verifier: carry-less multiplication (PCLMULQDQ) where the CPU has it, zlib's
        // crc32_z for short runs and other CPUs. Only Image/CRC32.swift calls it.
        .target(
            name: "CCRC32",
            dependencies: ["CZlib"]
        ),
        // All of the extension's logic. Never prints, never exits.
        .target(
            name: "CarillonExtensionCore",
            dependencies: ["CCurl", "COpenSSL", "CCRC32", "CZlib"],
            swiftSettings: orderableFunctions
        ),
        // The command line's parsing and commands, writing to streams it is given, so tests run it in-process.
        .target(
            name: "CarillonCLI",
            dependencies: ["CarillonExtensionCore"],
            swiftSettings: orderableFunctions
        ),
        // The thin executable: runs CarillonCLI with the real process streams and exits with its status.
        .executableTarget(
            name: "carillon-nse",
            dependencies: ["CarillonCLI"],
            exclude: ["startup.order", "StaticCxxRuntime"],
            // Release builds link the Swift runtime statically: the dynamic loader binding a dozen
            // runtime libraries at every start was most of the gap to curl. With lld: the relative
            // relocations are packed (DT_RELR, glibc 2.36+), so a start reads far less of them; nothing
            // is exported (nothing links against the executable); and the functions a run executes are
            // laid out together (startup.order, written by TestAssets/Bench/startup_order.py), so a run
            // maps less of the executable (a symbol the file names that no longer exists is skipped: a
            // stale file costs memory, never a build); and the C++ runtime is linked statically
            // (StaticCxxRuntime/libstdc++.so says how and why). The figures: TestAssets/Bench/README.md,
            // "Measurements behind the code".
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker",
                        "--no-export-dynamic", "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/carillon-nse/startup.order",
                        "-Xlinker", "--no-warn-symbol-ordering", "-L", "\(packageDirectory)/Sources/carillon-nse/StaticCxxRuntime",
                    ],
                    .when(configuration: .release))
            ]
        ),
        // What the test targets share: the local HTTPS test server, temporary directories, payloads.
        .target(
            name: "CarillonTestSupport",
            dependencies: ["CarillonExtensionCore"],
            path: "Tests/CarillonTestSupport"
        ),
        // The fuzz targets' invariant checks, one function per target: the fuzz package's targets call
        // them, and CarillonExtensionCoreTests replays every saved fuzz input through them.
        .target(
            name: "CarillonFuzzChecks",
            dependencies: ["CarillonExtensionCore"],
            path: "Tests/CarillonFuzzChecks"
        ),
        .testTarget(
            name: "CarillonExtensionCoreTests",
            dependencies: ["CarillonExtensionCore", "CarillonTestSupport", "CarillonFuzzChecks"]
        ),
        .testTarget(
            name: "CarillonCLITests",
            dependencies: ["CarillonCLI", "carillon-nse", "CarillonTestSupport", "CarillonFuzzChecks"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
