import Foundation
import ShareKitSystemTesting
import Synchronization

/// A slow-body attack: connections that each send a complete request head
/// for a streamed upload (`PUT /upload/…` announcing a large body), then
/// one byte of the body every `interval`, so that each byte would reset an
/// idle timeout. Connections the server closes are kept (their sends fail
/// quietly) so the attack's size stays what the test asked for.
final class SlowBody: Sendable {
    private let sockets: Mutex<[LoopbackSocket]>
    private let stopped = DispatchSemaphore(value: 0)

    /// Opens the connections, sends each one's head and first body byte.
    /// - Parameters:
    ///   - port: the server's port.
    ///   - count: the number of connections.
    ///   - sources: the local addresses to connect from, used in turn.
    ///   - interval: the time between two body bytes of one connection.
    init(port: Int, count: Int, sources: [String] = ["127.0.0.1"], interval: Duration = .seconds(2)) throws {
        var opened: [LoopbackSocket] = []
        for index in 0..<count {
            let socket = try LoopbackSocket(port: port, source: sources[index % sources.count], receiveTimeout: 100)
            try? socket.send(
                "PUT /upload/slow-\(index).bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\nb")
            opened.append(socket)
        }
        sockets = Mutex(opened)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        Thread { [self] in
            while stopped.wait(timeout: .now() + seconds) == .timedOut {
                self.sockets.withLock { sockets in
                    for socket in sockets { try? socket.send("b") }
                }
            }
        }.start()
    }

    /// Stops the attack and closes every connection.
    func stop() {
        stopped.signal()
        sockets.withLock { sockets in
            for socket in sockets { socket.close() }
            sockets = []
        }
    }
}
