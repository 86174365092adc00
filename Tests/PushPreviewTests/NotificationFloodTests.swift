import Foundation
import Glibc
import ShareKitClientAssembly
import ShareKitClientTestSupport
import ShareKitCore
import ShareKitHTTPInterface
import ShareKitPushPreview
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A flood of pushes against `share-daemon` whose notification program
/// never ends by itself and ignores SIGTERM (a hung or hostile
/// `notify-send`): the programs alive stay within `--max-notifications`,
/// counted by their process ids, and SIGTERM still stops the daemon at
/// once, ending every program it started.
@Suite("share-daemon: a flood of pushes", .serialized)
struct NotificationFloodTests {
    /// The process ids the stand-in recorded that are still alive (not gone, not a zombie).
    static func alive(_ record: String) -> [Int32] {
        StandIns.lines(record).compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // The state follows the command's closing parenthesis: Z is a zombie, X is dead.
            let state = stat[stat.index(after: close)...].dropFirst().first
            return state != "Z" && state != "X"
        }
    }

    @Test("12 pushes, a notification program that ignores SIGTERM: at most 4 alive; SIGTERM ends all of them")
    func floodIsBounded() async throws {
        let limit = 4
        let pushes = 12
        let fixture = try await PushFixture()
        defer { fixture.close() }
        let record = fixture.sandbox.home.file("notify-pids")
        // Records its pid, ignores SIGTERM (inherited by sleep), holds no
        // descriptor of the daemon's, and never ends by itself.
        let notify = try StandIns.script(
            fixture, name: "hung-notify-send",
            body: "echo $$ >> '\(record)'\ntrap '' TERM\nexec sleep 600 </dev/null >/dev/null 2>&1\n")
        // Whatever happens, no stand-in outlives the test.
        defer { for pid in StandIns.lines(record).compactMap({ Int32($0) }) { kill(pid, SIGKILL) } }
        let daemon = try PushDaemon(
            fixture, environment: [NotificationPresenter.commandVariable: notify],
            arguments: ["--max-notifications", String(limit)])
        defer { daemon.stop() }

        // A message in each of six threads, more threads than the limit: the
        // pushes of one thread replace each other (one notification per
        // thread), so only pushes of several threads can pile up.
        var messages: [String] = []
        for thread in ["t-1", "t-2", "t-3", "t-4", "t-5", "t-6"] {
            let (status, object) = try await fixture.call(
                .post, "/api/v1/threads/\(thread)/messages",
                json: ["client_msg_id": UUIDv7().description, "text": "flood"])
            #expect(status == 201)
            messages.append(try #require((object["message"] as? [String: Any])?["id"] as? String))
        }
        for index in 0..<pushes {
            let (status, _) = try await fixture.call(
                .post, "/api/v1/push/test", json: ["message_id": messages[index % messages.count]])
            #expect(status == 202)
        }
        var most = 0
        for _ in 0..<pushes {
            #expect(daemon.wait { $0.contains("push: rendered notification") } != nil)
            most = max(most, Self.alive(record).count)
        }
        // Beyond the limit the log says so: the oldest stops waiting for a
        // click, the newest waits for room (one that waited before it is
        // dropped, when the pushes come faster than a stopped program is gone).
        #expect(daemon.lines.contains { $0.contains("stopped waiting for a click") }, "\(daemon.lines)")
        #expect(daemon.lines.contains { $0.contains("waits for one of the \(limit) notification programs") })
        most = max(most, Self.alive(record).count)
        #expect(most <= limit, "\(most) notification programs alive at once")
        #expect(most >= 1, "no notification program ever ran")

        let (status, took) = daemon.terminate()
        #expect(status == 0, "\(daemon.lines.suffix(20).joined(separator: "\n"))")
        #expect(took < .seconds(15), "SIGTERM took \(took)")
        #expect(Self.alive(record).isEmpty, "alive after the daemon stopped: \(Self.alive(record))")
        print("flood of \(pushes) pushes, limit \(limit): at most \(most) alive; SIGTERM took \(took)")
    }
}
