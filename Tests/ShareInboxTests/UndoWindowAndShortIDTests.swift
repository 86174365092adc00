import Foundation
import ShareKitCore
import ShareKitInbox
import ShareKitInboxInterface
import Testing

@Suite("inbox manifest: the undo window; short ids")
struct UndoWindowAndShortIDTests {
    private static func manifest(notBefore: String?) -> InboxManifest {
        var manifest = InboxManifest(
            clientMsgID: "0193a6b2-7c1d-7e00-8000-000000000001", serverOrigin: "http://127.0.0.1:8080",
            target: ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway"), comment: "x",
            createdAt: "2026-12-01T03:00:00Z")
        manifest.notBefore = notBefore
        return manifest
    }

    @Test("not_before and message_requested round-trip, and are absent when they say nothing")
    func roundTrip() throws {
        var manifest = Self.manifest(notBefore: "2026-12-01T03:00:30.000Z")
        manifest.messageRequested = true
        let again = try InboxManifestCodec.decode(try InboxManifestCodec.encode(manifest))
        #expect(again == manifest)
        let plain = String(decoding: try InboxManifestCodec.encode(Self.manifest(notBefore: nil)), as: UTF8.self)
        #expect(!plain.contains("not_before") && !plain.contains("message_requested"), "\(plain)")
    }

    @Test("a not_before that is not an RFC 3339 time is a wrong field, named")
    func malformedNotBefore() throws {
        var text = String(decoding: try InboxManifestCodec.encode(Self.manifest(notBefore: nil)), as: UTF8.self)
        text.replaceSubrange(text.range(of: "{")!, with: #"{"not_before":"in a minute","#)
        #expect(throws: InboxError.manifestWrongType("not_before")) {
            try InboxManifestCodec.decode(Array(text.utf8))
        }
    }

    @Test("the window is honoured within the hour, not beyond it, and ends")
    func undoWait() {
        let now = RFC3339.unixMilliseconds("2026-12-01T03:00:00Z")!
        #expect(Self.manifest(notBefore: nil).undoWait(now: now) == nil)
        #expect(Self.manifest(notBefore: "2026-12-01T02:59:59Z").undoWait(now: now) == nil)
        #expect(Self.manifest(notBefore: "2026-12-01T03:00:30Z").undoWait(now: now) == .waiting(until: now + 30_000))
        #expect(
            Self.manifest(notBefore: "2026-12-01T04:00:00Z").undoWait(now: now) == .waiting(until: now + 3_600_000))
        #expect(
            Self.manifest(notBefore: "9999-12-31T23:59:59Z").undoWait(now: now)
                == .outOfRange(until: RFC3339.unixMilliseconds("9999-12-31T23:59:59Z")!))
    }

    @Test("short ids of 300 shares made in one millisecond: unique, at least six characters, ends of the id")
    func shortIDs() {
        let ids = (0..<300).map { _ in
            UUIDv7(milliseconds: 1_764_558_000_000, randA: 0, randB: UInt64.random(in: 0...UInt64.max)).description
        }
        let short = ShareShortID.shortIDs(for: ids)
        #expect(short.count == 300)
        #expect(Set(short.values).count == 300)
        for id in ids {
            let mine = short[id]!
            #expect(mine.count >= 6 && id.hasSuffix(mine))
            #expect(ids.filter { ShareShortID.matches(mine, id: $0) } == [id])
        }
        #expect(ShareShortID.shortIDs(for: ["not-a-uuid"]) == ["not-a-uuid": "not-a-uuid"])
        #expect(ShareShortID.matches(String(ids[0].prefix(6)), id: ids[0]))
        #expect(!ShareShortID.matches(String(ids[0].suffix(5)), id: ids[0]))
        #expect(ShareShortID.matches(ids[0].uppercased().suffix(8).description, id: ids[0]))
    }

    @Test("a short id that another id begins with grows until it names one share")
    func endThatBeginsAnother() {
        // a ends with what b begins with (b's time).
        let a = "01a23fac-e43d-719a-a7b8-00000001a23f"
        let b = "01a23f00-0000-7000-8000-000000000001"
        let short = ShareShortID.shortIDs(for: [a, b])
        #expect(short[a] == "001a23f", "\(short)")
        #expect(short[b] == "000001", "\(short)")
    }
}
