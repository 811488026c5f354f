// The C library for the test targets, imported here once and re-exported (`@_exported`, refused in
// Sources/ only): every test target that imports CarillonTestSupport sees it. The sources' rooms
// (CarillonExtensionCore's Support/LibC.swift, CarillonCLI's Support/LibC.swift) re-export nothing.
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
