import Foundation

/// The time source of signers and verifiers: Unix time in whole seconds.
/// Tests pass their own closure for a fixed "now".
public enum DPoPClock {
    /// The system clock.
    public static let system: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970.rounded(.down)) }
}
