import FuzzSupport

@testable import PushPreview

/// One input, read twice: as the JSON of a push the notifier receives
/// (relayed by a push service, so hostile) by `PushPayloadParser.parse`,
/// and as the server's answer to the preview fetch by the internal
/// `PreviewDecoder.decode` (hence `@testable`: debug builds allow it), and
/// as a preview's `web_url` by `NotificationLink.resolve`. Each must return
/// a value or refuse; a trap or sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    _ = try? PushPayloadParser.parse(bytes)
    _ = PreviewDecoder.decode(bytes)
    _ = NotificationLink.resolve(String(decoding: bytes, as: UTF8.self), origin: "http://127.0.0.1:8080")
    return 0
}

@_cdecl("PushPayloadFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
