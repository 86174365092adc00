import Foundation
public import Glibc
import ShareKitCore
public import ShareKitDaemonControlInterface

/// The CLI's side of share-daemon's control socket, a Unix stream socket at
/// ``path``: one request line (``DaemonRequest/line``), one answer line.
/// Whoever listens on the socket may be another user's process, so the
/// answer is read within one overall deadline and size limit and decoded
/// strictly; a daemon of the previous version, which knew only plain
/// words, is asked again in its words.
public struct UnixDaemonControl: DaemonControlling {
    /// The socket's path.
    public let path: String

    /// - Parameter path: the socket's path (the root chooses it from the environment).
    public init(path: String) {
        self.path = path
    }

    /// The largest answer read from the socket. A status with a thousand
    /// refused shares fits many times over; anything larger is not the daemon's.
    public static let maximumAnswerLength = 1 << 20

    /// Sends a request and decodes the answer as `Answer`.
    /// - Parameters:
    ///   - request: what to ask.
    ///   - answer: the answer's type (``DaemonAcknowledgement`` for `wake`
    ///     and `retry`, ``DaemonStatusReport`` for `status`).
    ///   - timeoutMilliseconds: the deadline for the whole exchange.
    /// - Returns: the decoded answer, or why there is none. Strings in an
    ///   error are safe for a terminal; strings in the answer are as
    ///   written (``DaemonStatusReport/neutralised`` makes them safe).
    public func send<Answer: Decodable>(
        _ request: DaemonRequest, expecting answer: Answer.Type, timeoutMilliseconds: Int32 = 2000
    ) -> Result<Answer, DaemonControlError> {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
        var bytes: [UInt8]
        switch Self.exchange(request.line, path: path, deadline: deadline) {
        case .success(let answer): bytes = answer
        case .failure(let failure): return .failure(failure)
        }
        var plainWord = false
        if bytes == Array(Self.legacyUnknownRequest.utf8) {
            // A daemon of the previous version: it reads plain words and
            // writes `ok` for what it did.
            plainWord = true
            switch Self.exchange(request.rawValue, path: path, deadline: deadline) {
            case .success(let answer): bytes = answer
            case .failure(let failure): return .failure(failure)
            }
        }
        return Self.decode(bytes, as: Answer.self, plainWord: plainWord)
    }

    /// What share-daemon says about itself, with every string made safe
    /// for a terminal.
    /// - Returns: the status, or why there is none (``DaemonControlError/notRunning``
    ///   when no daemon listens).
    public func status() -> Result<DaemonStatusReport, DaemonControlError> {
        send(.status, expecting: DaemonStatusReport.self).map(\.neutralised)
    }

    /// Wakes the daemon's inbox takeover at once, waiting half a second for
    /// its answer (`share send --queue` should not hang on a busy daemon).
    /// - Returns: whether a daemon answered.
    @discardableResult
    public func wake() -> Bool {
        if case .success = send(.wake, expecting: DaemonAcknowledgement.self, timeoutMilliseconds: 500) {
            return true
        }
        return false
    }

    /// Whether a daemon listens on ``path`` now.
    public func isListening() -> Bool {
        Self.isListening(path)
    }

    /// What the previous version answered a line it did not know.
    static let legacyUnknownRequest = "unknown request"

    /// Decodes one answer: a refusal (`{"error":...}`) or `Answer`.
    static func decode<Answer: Decodable>(_ bytes: [UInt8], as answer: Answer.Type, plainWord: Bool)
        -> Result<Answer, DaemonControlError>
    {
        if plainWord, bytes == Array("ok".utf8), let ok = DaemonAcknowledgement() as? Answer { return .success(ok) }
        if plainWord, bytes == Array(legacyUnknownRequest.utf8) {
            return .failure(.refused(legacyUnknownRequest))
        }
        let decoder = JSONDecoder()
        let data = Data(bytes)
        if let refusal = try? decoder.decode(DaemonRefusal.self, from: data) {
            return .failure(.refused(TerminalText.neutralised(refusal.error)))
        }
        do {
            return .success(try decoder.decode(Answer.self, from: data))
        } catch let error as DecodingError {
            return .failure(.unreadable(reason(error)))
        } catch {
            return .failure(.unreadable("not JSON"))
        }
    }

    /// Why an answer did not decode, in words that never quote the answer
    /// itself (the member names are this program's own).
    private static func reason(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let names = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the answer" : "`" + names.joined(separator: ".") + "`"
        }
        switch error {
        case .typeMismatch(_, let context): return "\(place(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context): return "\(place(context.codingPath)) is null"
        case .keyNotFound(let key, _): return "`\(key.stringValue)` is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(place(context.codingPath)) is not valid"
        @unknown default: return "not the expected JSON"
        }
    }

    /// Writes one line and reads the answer: up to a newline, the peer
    /// closing, the size limit or the deadline, whichever comes first.
    private static func exchange(_ line: String, path: String, deadline: ContinuousClock.Instant)
        -> Result<[UInt8], DaemonControlError>
    {
        guard let fd = connect(to: path) else { return .failure(.notRunning) }
        defer { close(fd) }
        let request = Array((line + "\n").utf8)
        guard
            request.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count
        else { return .failure(.noAnswer) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .failure(answer.isEmpty ? .noAnswer : .incomplete) }
            let milliseconds = Int32(min(Double(Int32.max), (left / .milliseconds(1)).rounded(.up)))
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready == 1 else { return .failure(answer.isEmpty ? .noAnswer : .incomplete) }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            if let newline = buffer[0..<n].firstIndex(of: UInt8(ascii: "\n")) {
                answer += buffer[0..<newline]
                break
            }
            answer += buffer[0..<n]
            guard answer.count <= maximumAnswerLength else { return .failure(.tooLarge(limit: maximumAnswerLength)) }
        }
        guard answer.count <= maximumAnswerLength else { return .failure(.tooLarge(limit: maximumAnswerLength)) }
        guard !answer.isEmpty else { return .failure(.noAnswer) }
        return .success(answer)
    }

    /// The address of a Unix socket path, or nil when the path is too long for one.
    public static func address(of path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// A stream socket connected to `path` (close-on-exec), or nil when nobody listens there.
    public static func connect(to path: String) -> Int32? {
        guard var address = address(of: path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether a daemon listens on `path` now.
    static func isListening(_ path: String) -> Bool {
        guard let fd = connect(to: path) else { return false }
        close(fd)
        return true
    }
}
