import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitMicroHTTPServer
import ShareKitSystemTesting
import Synchronization
import Testing

/// Clients that ask for large answers and never read them must not make
/// the server hold unbounded memory: large in-memory answers count against
/// `maxBufferedResponseBytes`, and a `GET` beyond it is answered
/// `503 server_busy` with `Retry-After`.
@Suite("MicroHTTPServer: large answers clients do not read", .serialized)
struct ResponseMemoryTests {
    /// Each answer is far larger than the kernel's socket buffers (at most
    /// 4 MiB for sending on Linux), so most of it stays with the server.
    static let answerSize = 16 << 20

    @Test("six clients that never read 16 MiB answers: two are held, then GETs are answered 503 with Retry-After")
    func totalIsBounded() throws {
        try MemoryHeavy.run { try totalIsBoundedAlone() }
    }

    private func totalIsBoundedAlone() throws {
        let server = try TestServer { $0.maxBufferedResponseBytes = 32 << 20 }
        defer { server.stop() }
        var attackers: [LoopbackSocket] = []
        defer { for socket in attackers { socket.close() } }
        var statuses: [Int] = []
        for _ in 0..<6 {
            let socket = try LoopbackSocket(port: server.port, receiveBuffer: 4096)
            try socket.send("GET /big?size=\(Self.answerSize) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            // The head only: the body stays unread.
            statuses.append(Self.status(socket.receiveHead()))
            attackers.append(socket)
        }
        #expect(statuses == [200, 200, 503, 503, 503, 503], "\(statuses)")
        #expect(server.server.bufferedResponseBytes <= 32 << 20)

        // Another client: a large GET waits its turn, a small one is served,
        // and a POST's answer (its effect has happened) is always sent.
        let large = try Curl.request(server.url("/big?size=\(Self.answerSize)"))
        #expect(large.status == 503)
        #expect(large.header("retry-after") == "1")
        #expect(try large.json()["code"] as? String == "server_busy")
        #expect(try Curl.request(server.url("/hello")).status == 200)
        let posted = try Curl.request(server.url("/big?size=\(1 << 20)"), ["--data-binary", "x"])
        #expect(posted.status == 200 && posted.body.count == 1 << 20)

        // Once the readers that never read are gone, their answers are freed.
        for socket in attackers { socket.close() }
        attackers = []
        #expect(Self.waitUntil { server.server.bufferedResponseBytes == 0 }, "\(server.server.bufferedResponseBytes)")
        let later = try Curl.request(server.url("/big?size=\(Self.answerSize)"))
        #expect(later.status == 200 && later.body.count == Self.answerSize)
        let records = server.log.wait(for: 10)
        #expect(records.contains { $0.status == .serviceUnavailable && $0.failure?.contains("answers") == true })
    }

    /// The status code of a response head, 0 when there is none.
    static func status(_ head: String) -> Int {
        head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// Whether `condition` holds within 20 s, looked at every 10 ms: the
    /// server frees an answer when its connection thread notices the close.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
