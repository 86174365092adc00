/// A problem document (RFC 9457, `Problem`), the body of every error
/// answer but a token endpoint's refusal of a proof (``OAuthErrorBody``).
public struct ProblemBody: Codable, Hashable, Sendable {
    /// A URI naming the problem type; `about:blank` when the status says it all.
    public var type: String
    /// A short summary, for people.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// The machine-readable code clients act on.
    public var code: ProblemCode
    /// What happened this time, for people.
    public var detail: String?

    /// Makes a problem document.
    /// - Parameters:
    ///   - type: the type URI.
    ///   - title: the summary.
    ///   - status: the status.
    ///   - code: the code.
    ///   - detail: the detail, or nil.
    public init(type: String = "about:blank", title: String, status: Int, code: ProblemCode, detail: String?) {
        self.type = type
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
    }
}
