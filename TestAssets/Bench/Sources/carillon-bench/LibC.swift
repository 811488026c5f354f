// The C library for the benchmark, imported here once: `@_exported` makes it visible in every file of
// this module (refused in the package's Sources/ only, where each module has a room of thin names).
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
