/// One request, as written to the request log: what was asked, what was
/// answered, how long it took. It carries no header value, query string or
/// body, because those can hold credentials (tokens, DPoP proofs, passwords).
public struct HTTPRequestLogRecord: Sendable, CustomStringConvertible {
    /// The engine's id for the request (also in the `X-Request-Id` response header).
    public var requestID: String
    /// The method; nil when the engine refused the request before its head
    /// was complete (a malformed or oversized head).
    public var method: HTTPMethod?
    /// The handler's route template when it gave one
    /// (``HTTPResponse/routeTemplate``), else the path without the query.
    public var route: String
    /// The status answered; nil when the handler never answered (the client
    /// left first, or the engine refused the head itself).
    public var status: HTTPStatus?
    /// From the request line's arrival to the end of the exchange.
    public var duration: Duration
    /// Bytes of request body received.
    public var bodyBytes: UInt64
    /// How the request ended.
    public var outcome: HTTPRequestOutcome
    /// For a 500 the engine made from a thrown error: the error's description.
    /// Handler errors must therefore not describe secrets.
    public var failure: String?

    /// Makes a record.
    /// - Parameters:
    ///   - requestID: the request id.
    ///   - method: the method.
    ///   - route: the route template or path.
    ///   - status: the status sent.
    ///   - duration: the time taken.
    ///   - bodyBytes: the request body bytes received.
    ///   - outcome: how it ended.
    ///   - failure: the description of a thrown error.
    public init(
        requestID: String, method: HTTPMethod?, route: String, status: HTTPStatus?, duration: Duration,
        bodyBytes: UInt64, outcome: HTTPRequestOutcome, failure: String? = nil
    ) {
        self.requestID = requestID
        self.method = method
        self.route = route
        self.status = status
        self.duration = duration
        self.bodyBytes = bodyBytes
        self.outcome = outcome
        self.failure = failure
    }

    /// The log line: `GET /spaces 200 1.234ms id=… in=0 completed`, then
    /// `error=…` for a failure; `-` stands for a missing method or status.
    ///
    /// The method and the route come from the client as sent (a request
    /// refused for its request line, a path no route matched), so the line
    /// may be shown on a terminal with bytes a client chose: every control
    /// character (C0, DEL, C1), format character (bidirectional overrides,
    /// zero-width characters) and line separator in it is written as its
    /// Swift escape (`\u{1B}`). The line is always one line, and a person
    /// still sees that something was there.
    public var description: String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let millis =
            "\(micros / 1000).\(String(repeating: "0", count: 3 - String(micros % 1000).count))\(micros % 1000)"
        var line = "\(method?.rawValue ?? "-") \(route) \(status.map { String($0.rawValue) } ?? "-") \(millis)ms"
        line += " id=\(requestID) in=\(bodyBytes) \(outcome)"
        if let failure { line += " error=\(failure)" }
        return Self.neutralised(line)
    }

    /// The text with every character that could steer a terminal or break
    /// the line escaped (the rule of ShareCore's `TerminalText`, which this
    /// interface does not depend on).
    static func neutralised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        default:
            return false
        }
    }
}
