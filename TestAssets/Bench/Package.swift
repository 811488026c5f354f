// swift-tools-version:6.0
// The benchmark helper for TestAssets/Bench/run.sh: times the in-process parts of the pipeline against
// the main package's core library, depended on by path so that it always measures the working tree.
import PackageDescription

// A path dependency's identity is its directory's name (the clone's folder, not "carillon-nse"), so it
// is worked out here rather than written down.
let root = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "main"

let package = Package(
    name: "carillon-bench",
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "carillon-bench",
            dependencies: [
                .product(name: "CarillonExtensionCore", package: root.lowercased()),
                .product(name: "CarillonCLI", package: root.lowercased()),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
