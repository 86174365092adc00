public import ShareKitPushPreviewInterface
public import ShareKitSharedStateInterface

/// The notifier's display counters in the shared state: how long from
/// receipt to delivery (a total and a count) and how many placeholders
/// stayed. Numbers only: the shared container never holds message content.
/// The notifier adds, the daemon takes them (read and reset) and reports
/// them as `client.push_display.duration` and `client.push.placeholder`.
public struct DisplayCounters: PushDisplayCounting {
    /// Counters taken by ``take()`` (the interface's ``ShareKitPushPreviewInterface/PushDisplayTotals``).
    public typealias Totals = PushDisplayTotals

    private let state: any SharedStateStore

    /// Makes the counters over a shared state.
    /// - Parameter state: the shared state.
    public init(state: any SharedStateStore) {
        self.state = state
    }

    /// Adds one shown notification. Best effort: a counter that cannot be
    /// written must not keep a notification from being shown.
    /// - Parameters:
    ///   - duration: from receipt to delivery.
    ///   - placeholder: whether the placeholder stayed.
    public func record(duration: Duration, placeholder: Bool) {
        let ms = max(0, duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        _ = try? state.increment(.displayDurationTotal, by: ms)
        _ = try? state.increment(.displayCount)
        if placeholder { _ = try? state.increment(.placeholderCount) }
    }

    /// Reads and resets every counter, each in one atomic step, so a
    /// display counted meanwhile is reported next time, never twice.
    /// - Returns: what was counted since the last take.
    /// - Throws: `SharedStateError` when the state cannot be read or written.
    public func take() throws -> Totals {
        Totals(
            durationMilliseconds: try takeOne(.displayDurationTotal), displays: try takeOne(.displayCount),
            placeholders: try takeOne(.placeholderCount))
    }

    /// Adds taken counters back (their report failed), so they are reported with the next ones.
    /// Best effort, like ``record(duration:placeholder:)``.
    /// - Parameter totals: what ``take()`` returned.
    public func restore(_ totals: Totals) {
        _ = try? state.increment(.displayDurationTotal, by: totals.durationMilliseconds)
        _ = try? state.increment(.displayCount, by: totals.displays)
        _ = try? state.increment(.placeholderCount, by: totals.placeholders)
    }

    private func takeOne(_ key: SharedStateKey) throws -> Int64 {
        var taken: Int64 = 0
        try state.update(key) { current in
            taken = current.flatMap { Int64($0) } ?? 0
            return nil
        }
        return taken
    }
}
