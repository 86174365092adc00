import Foundation
import ShareKitCore
import Testing

@Suite("share targets")
struct ShareTargetTests {
    @Test(
        "the three reference forms parse",
        arguments: [
            ("thread:t1", ShareTarget.Kind.thread, "t1"), ("channel:c1", .channel, "c1"),
            ("new-post:c2", .newPost, "c2"),
        ])
    func references(text: String, kind: ShareTarget.Kind, id: String) throws {
        let target = try #require(try ShareTarget.parseReference(text))
        #expect(target.kind == kind)
        #expect(target.id == id)
    }

    @Test("a display path is not a reference")
    func displayPath() throws {
        #expect(try ShareTarget.parseReference("server > Gateway > resume the gateway") == nil)
    }

    @Test("a known prefix without an id is an error that says so", arguments: ["thread:", "channel: c1", "new-post:"])
    func emptyIDs(text: String) {
        #expect(throws: ShareCoreError.self) { try ShareTarget.parseReference(text) }
    }

    @Test("JSON uses the wire names kind, id, display_path and new_post")
    func wireNames() throws {
        let target = ShareTarget(kind: .newPost, id: "c2", displayPath: "server > Ideas")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(target)) as? [String: String]
        #expect(json == ["kind": "new_post", "id": "c2", "display_path": "server > Ideas"])
    }

    @Test("configuration keys keep their documented names")
    func configKeys() {
        #expect(
            ConfigKey.allCases.map(\.rawValue) == [
                "client.share.recent_targets", "file_max_upload_bytes", "message_max_attachments",
                "client.push.fetch_timeout", "upload.part_size", "upload.budget",
            ])
    }
}
