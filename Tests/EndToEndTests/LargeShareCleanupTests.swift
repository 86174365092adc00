import Foundation
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// `share send` of a large file answers once the message is sent, and the
/// inbox's copy of the file is deleted afterwards by a `share inbox clean`
/// it starts in the background (deleting gigabytes takes a second or more
/// on some file systems); smaller shares are deleted before it answers.
@Suite("share send: a large share's copy is deleted in the background")
struct LargeShareCleanupTests {
    /// The folders of completed shares waiting in the inbox's staging folder.
    static func leftovers(_ fixture: ShareCLIFixture) -> [String] {
        let staging = fixture.sandbox.assembly.container.inboxPath + "/.staging"
        return ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).filter {
            $0.contains(".done.")
        }
    }

    @Test("a 64 MiB share is sent, leaves the inbox at once, and its copy is gone soon after; a small one at once")
    func largeShareCleanedInBackground() async throws {
        let fixture = try await ShareCLIFixture()
        defer { fixture.close() }
        // A text file (the demo server takes text/plain) just over the size.
        let path = fixture.sandbox.home.file("server.log")
        let line = Data("the gateway resumed at nine and stayed up all night\n".utf8)
        var block = Data()
        while block.count < 1 << 20 { block.append(line) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var size: Int64 = 0
        while size < ClientAssembly.largeRemovalBytes {
            try handle.write(contentsOf: block)
            size += Int64(block.count)
        }
        try handle.close()

        let sent = try fixture.share(["send", path, "--to", "thread:t1", "--json"])
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        #expect(sent.stdout.contains("\"status\":\"sent\""), "\(sent.stdout)")
        // Listed, not scanned: a scan deletes leftovers itself.
        let inbox = fixture.sandbox.assembly.container.inboxPath
        let entries = try FileManager.default.contentsOfDirectory(atPath: inbox).filter { !$0.hasPrefix(".") }
        #expect(entries.isEmpty, "the sent share left the inbox before share send answered: \(entries)")

        // The background cleaner is no child of this test: what it does is
        // waited for as the folder emptying, with a deadline.
        let deadline = ContinuousClock.now + .seconds(30)
        while !Self.leftovers(fixture).isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.leftovers(fixture).isEmpty, "the copy is still in .staging: \(Self.leftovers(fixture))")
        let messages = try await fixture.messages(thread: "t1")
        let attachment = (messages.last?["attachments"] as? [[String: Any]])?.first
        #expect((attachment?["size"] as? NSNumber)?.int64Value == size)

        let text = try fixture.share(["send", "--text", "small", "--to", "thread:t1"])
        #expect(text.status == 0, "\(text.stdout) \(text.stderr)")
        #expect(Self.leftovers(fixture).isEmpty, "a small share is deleted before share send answers")

        let clean = try fixture.share(["inbox", "clean", "--json"])
        #expect(clean.status == 0, "\(clean.stdout) \(clean.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [String: Any]
        #expect(object?["status"] as? String == "cleaned")
        #expect((object?["removed"] as? NSNumber)?.intValue == 0)
        let extra = try fixture.share(["inbox", "clean", "some-id"])
        #expect(extra.status == 2, "\(extra.stderr)")
        #expect(extra.stderr.contains("share inbox clean takes no ID"), "\(extra.stderr)")
    }
}
