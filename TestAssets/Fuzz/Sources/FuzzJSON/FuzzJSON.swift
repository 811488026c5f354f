import CarillonFuzzChecks

/// libFuzzer's entry point: the input is an APNs payload file, as for `FuzzPayload`, read by the JSON layer
/// alone: the parser, the writer's round trip and `Payload`'s agreement with the parser (three parses and
/// two writes of every input, a target of their own so that `FuzzPayload` parses once); see
/// `FuzzChecks.jsonLayer`. Its saved inputs go to `Regressions/FuzzPayload/`, which replays both.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.jsonLayer(bytes)
    } catch {
        fatalError("FuzzJSON: \(error.message)")
    }
    return 0
}
