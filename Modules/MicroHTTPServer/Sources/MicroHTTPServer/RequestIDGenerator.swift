import Synchronization

/// Request ids: a random prefix per server start and a counter, such as
/// `3f9a61c2-000001a4`. Cheap enough for every request (no random bytes per
/// request), unique within a run, and two runs' ids do not collide in one
/// log because the prefixes differ.
final class RequestIDGenerator: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    /// Makes a generator with a fresh random prefix.
    init() {
        var rng = SystemRandomNumberGenerator()
        prefix = Self.hex(UInt64(rng.next() as UInt32), width: 8)
    }

    /// The next id.
    func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + Self.hex(n, width: 8)
    }

    private static func hex(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 16)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
