import FuzzSupport
import PushPreview

/// One input: the JSON of a push as the notifier receives it (relayed by
/// a push service, so hostile). The parser must return a payload or throw;
/// a trap or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? PushPayloadParser.parse(fuzzBytes(data, size))
    return 0
}

@_cdecl("PushPayloadFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
