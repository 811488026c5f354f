// The C library for this module, imported here once: `@_exported` makes it visible in every file of the
// module (and of the fuzz package's targets that import it; refused in Sources/ only).
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
