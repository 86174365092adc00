import FuzzSupport
import ShareKitPushPreviewInterface

@testable import ShareKitPushPreview

/// One input, read three times: as the JSON of a push the notifier
/// receives (relayed by a push service, so hostile) by
/// `PushPayloadParser.parse`, as the server's answer to the preview fetch by
/// the internal `PreviewDecoder.decode` (hence `@testable`: debug builds
/// allow it), and as a preview's `web_url` by `NotificationLink.resolve`.
/// Each must return a value or refuse; a trap or sanitizer report is a
/// finding. A push that parses must have its members within their limits,
/// and the arguments of its notification program must stay far below
/// Linux's 128 KiB for one argument, so the notification can always be
/// shown. The input as text is also cut (`NotificationText.cut`) to a limit
/// its first byte picks: the cut must fit the limit and keep whole
/// characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    if let payload = try? PushPayloadParser.parse(bytes) {
        check(payload)
    }
    _ = PreviewDecoder.decode(bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    _ = NotificationLink.resolve(text, origin: "http://127.0.0.1:8080")
    let limit = Int(bytes.first ?? 0) + 3
    let cut = NotificationText.cut(text, maxBytes: limit)
    guard cut == text || (cut.utf8.count <= limit && cut.hasSuffix(NotificationText.ellipsis)) else {
        fatalError("a cut text is longer than its limit")
    }
    guard cut == text || text.hasPrefix(String(cut.dropLast())) else { fatalError("a cut is not a prefix") }
    return 0
}

private func check(_ payload: PushPayload) {
    let ids = [payload.ids?.nid, payload.ids?.kind, payload.ids?.instance, payload.ids?.thread, payload.ids?.message]
    for id in ids.compactMap({ $0 }) where id.utf8.count > PushPayloadParser.maxIDBytes {
        fatalError("an id of a push is longer than its limit")
    }
    if (payload.alert.title?.utf8.count ?? 0) > PushPayloadParser.maxTitleBytes
        || (payload.alert.body?.utf8.count ?? 0) > PushPayloadParser.maxBodyBytes
    {
        fatalError("an alert text is longer than its limit")
    }
    let renderer = PreviewRenderer(strings: PushStrings(environment: ["LANG": "C"]))
    var shown = payload.ids.map { renderer.placeholder(payload, ids: $0, failure: nil) } ?? renderer.unchanged(payload)
    if shown.title.isEmpty { shown.title = payload.alert.body ?? "" }
    shown.link = "http://127.0.0.1:8080/web"
    let arguments = NotificationPresenter.arguments(shown, actionLabel: payload.alert.title ?? "Open")
    for argument in arguments where argument.utf8.count > 32 * 1024 {
        fatalError("an argument of the notification program is \(argument.utf8.count) bytes")
    }
}

@_cdecl("PushPayloadFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
