import ShareKitCore

/// The time source of the session code: Unix time in whole seconds, the
/// unit the server's lifetimes come in. Tests pass their own closure.
public enum SessionClock {
    /// The system clock: ``ShareKitCore/UnixClock/system`` in seconds, kept as a
    /// closure so the session code's `clock:` parameters take it unchanged.
    public static let system: @Sendable () -> Int64 = { UnixClock.system.seconds() }
}
