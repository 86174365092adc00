import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A homeserver that slows a person down (`M_LIMIT_EXCEEDED`): the shares
/// wait as it asks and are sent, rather than being kept for the daemon.
@Suite(.serialized) struct MatrixRateLimitTests {
    @Test func aBurstOfSharesThatHitsTheRateLimitArrivesOnceEachAndNoneIsKept() throws {
        // One message a second, none in reserve: five shares at once are four too many.
        let server = try TemporarySynapse(messageRate: (perSecond: 1, burst: 1))
        defer { server.stop() }
        let fixture = try MatrixShareFixture(server: server)
        defer { fixture.close() }
        let sam = try MatrixPeer.register(on: server, prefix: "sam", password: "sam-pass")
        let room = try sam.createRoom(name: "Busy room", invite: [fixture.person.userID])
        try fixture.person.join(room)
        let login = try fixture.login()
        try #require(login.status == 0, "\(login.stderr)")
        let count = 5
        let results = Results()
        let done = DispatchGroup()
        // Threads of their own: each blocks on its process until it exits.
        for index in 0..<count {
            done.enter()
            Thread.detachNewThread {
                let result = Result {
                    try fixture.share(["send", "--text", "burst \(index)", "--to", room, "--json"])
                }
                results.set(index, result)
                done.leave()
            }
        }
        done.wait()
        for index in 0..<count {
            let result = try #require(try results.get(index)?.get())
            #expect(result.status == 0, "share \(index): \(result.stdout) \(result.stderr)")
            #expect(MatrixShareFixture.json(result)["status"] as? String == "sent", "share \(index): \(result.stdout)")
        }
        let bodies = try sam.messages(in: room).compactMap { ($0["content"] as? [String: Any])?["body"] as? String }
        for index in 0..<count {
            #expect(bodies.filter { $0 == "burst \(index)" }.count == 1, "\(bodies)")
        }
        #expect(bodies.count == count, "\(bodies)")
        // The homeserver did slow the burst down (else the test proves nothing).
        let limited = server.log.split(separator: "\n").filter {
            $0.contains(" 429 ") && $0.contains("/send/m.room.message/")
        }
        #expect(!limited.isEmpty, "no send was answered 429")
    }

    /// What each thread's process did.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int: Result<ProcessResult, any Error>] = [:]

        func set(_ index: Int, _ value: Result<ProcessResult, any Error>) {
            lock.withLock { values[index] = value }
        }

        func get(_ index: Int) -> Result<ProcessResult, any Error>? {
            lock.withLock { values[index] }
        }
    }
}
