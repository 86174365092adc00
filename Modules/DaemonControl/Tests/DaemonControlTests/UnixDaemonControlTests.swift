import Foundation
import ShareKitDaemonControl
import ShareKitDaemonControlInterface
import Testing

/// The two sides of the socket against each other, in one process.
struct UnixDaemonControlTests {
    /// Answers `status` with a report and acknowledges the rest.
    struct Answers: DaemonControlHandling {
        let report: DaemonStatusReport
        func answer(_ request: DaemonRequest) -> DaemonAnswer {
            request == .status ? .status(report) : .acknowledged
        }
    }

    /// A fresh private (0700) folder for a socket: the socket refuses a
    /// folder others can enter, and a socket path must be short.
    private static func socketPath() throws -> String {
        let folder = "/tmp/dc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder + "/daemon.sock"
    }

    /// Removes a socket's folder.
    private static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    @Test func theClientReadsWhatTheSocketAnswers() throws {
        let path = try Self.socketPath()
        defer { Self.remove(path) }
        let report = DaemonStatusReport(
            pid: 42, server: "http://a\u{1B}[2J", outbox: .init(pending: 1, sending: 0, sent: 0, failed: 0))
        let socket = try UnixControlSocket(path: path, handler: Answers(report: report))
        defer { socket.close() }
        let client = UnixDaemonControl(path: path)
        #expect(client.isListening())
        let status = try client.status().get()
        #expect(status.pid == 42)
        #expect(status.server?.contains("\u{1B}") == false)
        #expect(client.wake())
        #expect(client.send(.retry, expecting: DaemonAcknowledgement.self) == .success(DaemonAcknowledgement()))
        #expect(throws: DaemonControlError.cannotListen("another share-daemon already listens on \(path)")) {
            _ = try UnixControlSocket(path: path, handler: Answers(report: report))
        }
    }

    @Test func nobodyListeningIsNotRunning() throws {
        let path = try Self.socketPath()
        defer { Self.remove(path) }
        let client = UnixDaemonControl(path: path)
        #expect(!client.isListening())
        #expect(!client.wake())
        #expect(client.status() == .failure(.notRunning))
    }
}
