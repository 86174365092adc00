/// What a scripted peer (``HostileServer``, ``HoldingProxy``) does with a
/// request: a method, a path prefix and an action of the peer's own kind.
public struct PathRule<Action: Sendable>: Sendable {
    /// `GET`, `POST`…
    public var method: String
    /// The start of the path (without the origin; the query is part of the path).
    public var prefix: String
    /// What to do with a matching request.
    public var action: Action

    /// Makes a rule.
    /// - Parameters:
    ///   - method: the method.
    ///   - prefix: the start of the path.
    ///   - action: what to do.
    public init(_ method: String, _ prefix: String, _ action: Action) {
        self.method = method
        self.prefix = prefix
        self.action = action
    }

    /// The action of the first rule that matches a request, nil when none does.
    /// - Parameters:
    ///   - rules: the rules, first match wins.
    ///   - method: the request's method.
    ///   - path: the request's path.
    public static func action(in rules: [PathRule], method: String, path: String) -> Action? {
        rules.first { $0.method == method && path.hasPrefix($0.prefix) }?.action
    }
}
