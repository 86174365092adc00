public import ShareKitCore

/// The recent targets as a store read or left them, and what went wrong on
/// the way that a person should hear about without the operation failing.
public struct RecentTargets: Hashable, Sendable {
    /// The targets, newest first.
    public var targets: [ShareTarget]
    /// Set when the stored list could not be read and was reset to empty
    /// (before applying the change): what was wrong, for a person.
    public var warning: String?

    /// Makes a list.
    /// - Parameters:
    ///   - targets: the targets, newest first.
    ///   - warning: what was reset, if anything.
    public init(targets: [ShareTarget], warning: String? = nil) {
        self.targets = targets
        self.warning = warning
    }
}
