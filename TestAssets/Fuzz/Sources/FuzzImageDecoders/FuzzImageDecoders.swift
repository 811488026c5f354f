#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// With CARILLON_DECODERS_SHOW set, each input's two verdicts are printed; with CARILLON_DECODERS_REPORT,
/// each disagreement is printed instead of stopping at the first (for looking at a corpus:
/// `FuzzImageDecoders -runs=0 DIR`).
private let show = getenv("CARILLON_DECODERS_SHOW") != nil
private let report = getenv("CARILLON_DECODERS_REPORT") != nil

/// libFuzzer's entry point: the input is a downloaded image body. The tool's verdict (`ImageVerifier`)
/// must agree with "does the reference decoder produce an image" (libpng 1.6, libjpeg-turbo 2.1,
/// giflib 5.2), except for the documented differences (`DecoderComparison.Difference`). See README.md.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    if show { print(DecoderComparison.summary(bytes)) }
    if let disagreement = DecoderComparison.compare(bytes) {
        guard report else { fatalError("FuzzImageDecoders: \(disagreement)") }
        print("DISAGREE \(bytes.count) bytes: \(disagreement)")
    }
    return 0
}
