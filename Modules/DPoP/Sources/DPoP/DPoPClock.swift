import ShareKitCore

/// The time source of signers and verifiers: Unix time in whole seconds.
/// Tests pass their own closure for a fixed "now".
public enum DPoPClock {
    /// The system clock: ``ShareKitCore/UnixClock/system`` in seconds, as a
    /// closure for the signers' and verifiers' `clock:` parameters.
    public static let system: @Sendable () -> Int64 = { UnixClock.system.seconds() }
}
