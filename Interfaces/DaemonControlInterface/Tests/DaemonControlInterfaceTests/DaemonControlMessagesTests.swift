import Foundation
import ShareKitDaemonControlInterface
import ShareKitDaemonControlInterfaceTesting
import Testing

/// The control socket's wire format, as both sides write and read it: the
/// socket is a contract between versions of share and share-daemon.
struct DaemonControlMessagesTests {
    @Test func requestsTravelAsOneLineOfJSON() {
        #expect(DaemonRequest.status.line == #"{"request":"status"}"#)
        #expect(DaemonRequest.wake.line == #"{"request":"wake"}"#)
        #expect(DaemonRequest.retry.line == #"{"request":"retry"}"#)
    }

    @Test func theDaemonReadsJSONAndThePreviousVersionsWords() {
        func read(_ line: String) -> (DaemonRequest?, Bool) {
            let received = ReceivedDaemonRequest(parsing: line)
            return (received.request, received.isPlainWord)
        }
        #expect(read(#"{"request":"wake"}"#) == (.wake, false))
        #expect(read(" status ") == (.status, true))
        #expect(read(#"{"request":"dance"}"#) == (nil, false))
        #expect(read("dance") == (nil, true))
    }

    @Test func answersAreWrittenInTheRequestersWords() {
        #expect(DaemonAnswer.acknowledged.line(plainWord: false) == #"{"ok":true}"#)
        #expect(DaemonAnswer.acknowledged.line(plainWord: true) == "ok")
        #expect(DaemonAnswer.refused("unknown request").line(plainWord: false) == #"{"error":"unknown request"}"#)
        #expect(DaemonAnswer.refused("unknown request").line(plainWord: true) == "unknown request")
        let report = DaemonStatusReport(
            pid: 7, childSession: "ok", outbox: .init(pending: 1, sending: 0, sent: 2, failed: 0))
        #expect(
            DaemonAnswer.status(report).line(plainWord: true)
                == #"{"child_session":"ok","outbox":{"failed":0,"pending":1,"sending":0,"sent":2},"pid":7}"#)
    }

    @Test func aStatusOutOfRangeIsNotTheDaemons() {
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) {
            try decoder.decode(DaemonStatusReport.self, from: Data(#"{"pid":0}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(
                DaemonStatusReport.self,
                from: Data(#"{"pid":1,"outbox":{"pending":-1,"sending":0,"sent":0,"failed":0}}"#.utf8))
        }
        #expect((try? decoder.decode(DaemonStatusReport.self, from: Data(#"{"pid":1,"later":true}"#.utf8))) != nil)
    }

    @Test func theFakeAnswersWhatItWasGivenMadeSafe() {
        let fake = FakeDaemonControl(running: DaemonStatusReport(pid: 3, lastError: "bad\u{1B}[2J"))
        let status = try? fake.status().get()
        #expect(status?.pid == 3)
        #expect(status?.lastError?.contains("\u{1B}") == false)
        #expect(fake.wake())
        #expect(fake.requests == [.status, .wake])
        let stopped = FakeDaemonControl(status: .failure(.notRunning))
        #expect(!stopped.wake())
        #expect(!stopped.isListening())
    }
}
