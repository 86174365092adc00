import Foundation
import ShareKitClientTestSupport
import ShareKitSessionsInterface
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The first send right after `share login`, with no daemon anywhere.
@Suite("share login, then share send")
struct FirstSendTests {
    @Test("share login makes the child session: the next share send sends (exit 0) without a daemon")
    func sendRightAfterLogin() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        let login = try fixture.login()
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try fixture.stored(.child) != nil, "share login stored a child session")
        let sent = try fixture.share(["send", "--text", "first words", "--to", "thread:t1"])
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        #expect(sent.stdout.hasPrefix("sent to "), "\(sent.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.sandbox.home.file("container/run/daemon.sock")))
    }

    @Test("a second login replaces the child session, and share send still sends at once")
    func sendAfterSecondLogin() async throws {
        let fixture = try LoginFixture()
        defer { fixture.close() }
        #expect(try fixture.login().status == 0)
        let firstChild = try #require(try fixture.stored(.child))
        #expect(try fixture.login().status == 0)
        let secondChild = try #require(try fixture.stored(.child))
        #expect(secondChild.sessionID != firstChild.sessionID, "the new login made a new child")
        let sent = try fixture.share(["send", "--text", "again", "--to", "thread:t1", "--json"])
        #expect(sent.status == 0, "\(sent.stdout) \(sent.stderr)")
        #expect(LoginFixture.json(sent)["status"] as? String == "sent")
    }
}
