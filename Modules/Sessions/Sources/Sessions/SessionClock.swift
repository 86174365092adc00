import Foundation

/// The time source of the session code: Unix time in whole seconds, the
/// unit the server's lifetimes come in. Tests pass their own closure.
public enum SessionClock {
    /// The system clock.
    public static let system: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970.rounded(.down)) }
}
