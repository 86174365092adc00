public import ShareKitDPoPInterface
import Synchronization

/// A test double of ``ShareKitDPoPInterface/DPoPReplayStore`` in memory (tests,
/// benchmarks and fuzzers; a server keeps its replay store in its database).
///
/// Entries are kept in arrival order and dropped once expired, so memory is
/// bounded by the requests of one `iat` window. A hard ``capacity`` bounds
/// it under a flood: when the store is full of unexpired entries it refuses
/// (``ShareKitDPoPInterface/DPoPError/storeFailure(_:)``) rather than forgetting
/// entries, because forgetting would let proofs be replayed.
public final class InMemoryReplayStore: DPoPReplayStore {
    /// The default most entries kept (each about 170 bytes, so about 170 MB at worst).
    public static let defaultCapacity = 1_000_000

    private struct State {
        var expiry: [String: Int64] = [:]
        var queue: [(key: String, expiresAt: Int64)] = []
        var head = 0
    }

    /// The most unexpired entries kept.
    public let capacity: Int
    private let state = Mutex(State())

    /// Makes an empty store.
    /// - Parameter capacity: the most unexpired entries kept.
    public init(capacity: Int = defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Records the first use of a key; see ``ShareKitDPoPInterface/DPoPReplayStore/recordFirstUse(of:now:expiresAt:)``.
    /// - Parameters:
    ///   - key: the replay key.
    ///   - now: the current time, Unix seconds.
    ///   - expiresAt: when the entry may be forgotten.
    /// - Returns: true for a first use, false for a replay.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/storeFailure(_:)`` when the store is full.
    public func recordFirstUse(of key: String, now: Int64, expiresAt: Int64) throws -> Bool {
        try state.withLock { (s: inout State) throws(DPoPError) -> Bool in
            Self.dropExpired(&s, now: now)
            if let seenUntil = s.expiry[key], seenUntil > now { return false }
            guard s.expiry.count < capacity else {
                throw DPoPError.storeFailure(
                    "the replay store holds \(capacity) unexpired proofs; raise its capacity or narrow the iat window")
            }
            s.expiry[key] = expiresAt
            s.queue.append((key, expiresAt))
            return true
        }
    }

    /// The number of entries held, expired or not; for tests and metrics.
    public var count: Int { state.withLock { $0.expiry.count } }

    private static func dropExpired(_ s: inout State, now: Int64) {
        // Arrival order is nearly expiry order (iat varies only within the
        // window), so dropping from the front until an unexpired entry is enough.
        while s.head < s.queue.count, s.queue[s.head].expiresAt <= now {
            let entry = s.queue[s.head]
            if let current = s.expiry[entry.key], current <= now { s.expiry[entry.key] = nil }
            s.head += 1
        }
        if s.head > 1024, s.head * 2 > s.queue.count {
            s.queue.removeFirst(s.head)
            s.head = 0
        }
    }
}
