import ShareKitPushPreviewInterface
import Testing

@testable import ShareKitPushPreview

/// Long texts of a push and of a notification's arguments: cut on a
/// character boundary with an ellipsis, within their byte limits.
@Suite("notification texts: long fields cut")
struct NotificationTextTests {
    @Test("a cut keeps whole characters (multi-byte, emoji, combining marks) and ends in an ellipsis")
    func cutOnCharacterBoundaries() {
        #expect(NotificationText.cut("short", maxBytes: 10) == "short")
        #expect(NotificationText.cut("exactly 10", maxBytes: 10) == "exactly 10")
        #expect(NotificationText.cut("abcdefghijk", maxBytes: 10) == "abcdefg…")
        // € is three bytes: 7 bytes of budget hold two of them.
        #expect(NotificationText.cut(String(repeating: "€", count: 10), maxBytes: 10) == "€€…")
        // A family emoji is one character of 25 bytes: it goes whole or not at all.
        let family = "👨‍👩‍👧‍👦"
        #expect(NotificationText.cut("a" + family + family, maxBytes: 30) == "a" + family + "…")
        #expect(NotificationText.cut(family + family, maxBytes: 20) == "…")
        // One character of 100 000 combining marks does not fit: only the ellipsis.
        let zalgo = "e" + String(repeating: "\u{301}", count: 100_000)
        #expect(NotificationText.cut(zalgo + "x", maxBytes: 1000) == "…")
        for text in ["€€€€", family + "abc", zalgo, String(repeating: "ab", count: 100_000)] {
            for limit in [3, 4, 5, 17, 1000] {
                let cut = NotificationText.cut(text, maxBytes: limit)
                #expect(cut.utf8.count <= max(limit, 3) || cut == text)
            }
        }
    }

    @Test("a 200 KB field of a push is cut; a 200 KB b.m counts as absent; the arguments stay small")
    func payloadAndArguments() throws {
        let long = String(repeating: "<€>", count: 10_000)
        let thread = String(repeating: "<€>", count: 40_000)
        let json = """
            {"aps": {"alert": {"title": "\(long)", "body": "\(long)", "loc-key": "\(long)"}, "thread-id": "\(long)"},
             "b": {"v": 1, "nid": "\(long)", "k": "\(long)", "i": "\(long)", "t": "\(thread)", "m": "\(long)"}}
            """
        let payload = try PushPayloadParser.parse(Array(json.utf8))
        let ids = try #require(payload.ids)
        for id in [ids.nid, ids.kind, ids.instance, ids.thread ?? ""] {
            #expect(id.hasSuffix("…") && id.utf8.count <= PushPayloadParser.maxIDBytes)
        }
        #expect(ids.message == nil)
        #expect((payload.alert.title ?? "").utf8.count <= PushPayloadParser.maxTitleBytes)
        #expect((payload.alert.body ?? "").utf8.count <= PushPayloadParser.maxBodyBytes)
        #expect(payload.alert.threadID == nil, "an over-long aps.thread-id groups nothing, as before")

        let shown = RenderedNotification(
            title: long, body: long + String(repeating: "\u{1B}", count: 100_000), threadID: long, badge: nil,
            sound: nil, kind: nil, nid: nil, outcome: .unchanged, link: "http://127.0.0.1/x")
        let arguments = NotificationPresenter.arguments(shown, actionLabel: long)
        for argument in arguments { #expect(argument.utf8.count <= 6 * PushPayloadParser.maxBodyBytes + 64) }
        #expect(arguments.reduce(0) { $0 + $1.utf8.count } < 64 * 1024)
        #expect(arguments.last?.hasSuffix("…") == true)
    }

    @Test("a payload over the limit is refused before it is parsed")
    func payloadLimit() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: PushPayload.maximumSize + 1)
        #expect(throws: PushError.tooLarge(limit: PushPayload.maximumSize)) {
            _ = try PushPayloadParser.parse(big)
        }
    }
}
