import ShareKitHTTPInterfaceTesting
import ShareKitSessions
import ShareKitSessionsInterfaceTesting
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Synchronization

/// Collects a provider's events from any thread, for counting.
final class EventLog: Sendable {
    private let events = Mutex<[SessionRefreshEvent]>([])

    /// The observer to hand to a provider.
    var observer: @Sendable (SessionRefreshEvent) -> Void { { event in self.events.withLock { $0.append(event) } } }

    /// Everything seen so far.
    var all: [SessionRefreshEvent] { events.withLock { $0 } }

    /// How many refreshes were persisted.
    var persisted: Int { all.filter { if case .persisted = $0 { true } else { false } }.count }

    /// How many times the provider went for the lock.
    var lockWaits: Int { all.filter { $0 == .waitingForLock }.count }

    /// How many times it found the work already done under the lock.
    var skipped: Int { all.filter { $0 == .skipped }.count }
}
