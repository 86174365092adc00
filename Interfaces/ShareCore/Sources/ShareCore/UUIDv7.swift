import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A UUID version 7 (RFC 9562, section 5.7): 48 bits of Unix milliseconds,
/// then random bits, so ids sort by creation time.
///
/// Used for DPoP `jti` values and for `client_msg_id`, the idempotency key
/// a share keeps from the moment the person sends it until the server has it.
/// Generation is monotonic within a process (RFC 9562 section 6.2, method 1:
/// the 12-bit `rand_a` field is a counter, seeded from the CSPRNG each new
/// millisecond and incremented within one), so two ids made in one process
/// never compare out of order even within the same millisecond.
public struct UUIDv7: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The 16 bytes in network order.
    public let bytes: [UInt8]

    /// Wraps 16 bytes that already form a version 7 UUID.
    /// - Throws: ``ShareCoreError/invalidUUIDv7(_:)`` when the length,
    ///   version or variant bits are wrong.
    public init(bytes: [UInt8]) throws {
        guard bytes.count == 16, bytes[6] >> 4 == 7, bytes[8] >> 6 == 0b10 else {
            throw ShareCoreError.invalidUUIDv7(Hex.encode(bytes))
        }
        self.bytes = bytes
    }

    /// Parses the canonical 8-4-4-4-12 hexadecimal form (either case).
    /// - Throws: ``ShareCoreError/invalidUUIDv7(_:)`` for anything else, or
    ///   a UUID of another version.
    public init(string: String) throws {
        guard let uuid = UUID(uuidString: string) else { throw ShareCoreError.invalidUUIDv7(string) }
        let u = uuid.uuid
        try self.init(bytes: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }

    /// Makes a new id from the current time and the system CSPRNG.
    public init() {
        self = UUIDv7Generator.shared.next()
    }

    /// Makes an id from explicit parts; the generator and tests use it.
    /// - Parameters:
    ///   - milliseconds: Unix time in milliseconds (only the low 48 bits are used).
    ///   - randA: the 12-bit `rand_a` field (counter or random).
    ///   - randB: 62 random bits for `rand_b`.
    public init(milliseconds: UInt64, randA: UInt16, randB: UInt64) {
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - UInt64(i)))) }
        b[6] = 0x70 | UInt8(truncatingIfNeeded: (randA >> 8) & 0x0F)
        b[7] = UInt8(truncatingIfNeeded: randA)
        for i in 0..<8 { b[8 + i] = UInt8(truncatingIfNeeded: randB >> (8 * (7 - UInt64(i)))) }
        b[8] = 0x80 | (b[8] & 0x3F)
        self.bytes = b
    }

    /// The Unix time in milliseconds the id was made at.
    public var milliseconds: UInt64 {
        bytes[0..<6].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The canonical lowercase 8-4-4-4-12 form.
    public var description: String {
        var out = [UInt8]()
        out.reserveCapacity(36)
        appendText(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the canonical text (36 ASCII bytes) to a byte buffer, for
    /// writers that build JSON as bytes (a DPoP proof's `jti`).
    /// - Parameter output: the buffer to append to.
    @inlinable
    public func appendText(to output: inout [UInt8]) {
        for (i, byte) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { output.append(0x2D) }
            output.append(Hex.digits[Int(byte >> 4)])
            output.append(Hex.digits[Int(byte & 0x0F)])
        }
    }

    public static func < (lhs: UUIDv7, rhs: UUIDv7) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(string: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// The process-wide monotonic source of ``UUIDv7`` values.
///
/// A mutex keeps ordering across threads; the clock is injectable so tests
/// can show monotonicity when time stands still or steps backwards.
public final class UUIDv7Generator: Sendable {
    /// The generator ``UUIDv7/init()`` uses.
    public static let shared = UUIDv7Generator(clock: {
        UInt64(clamping: UnixClock.system.milliseconds())
    })

    private struct State {
        var lastMillis: UInt64 = 0
        var lastRandA: UInt16 = 0
        var random = RandomWords()
    }
    private let state = Mutex(State())
    private let clock: @Sendable () -> UInt64

    /// - Parameter clock: returns Unix time in milliseconds.
    public init(clock: @escaping @Sendable () -> UInt64) {
        self.clock = clock
    }

    /// The next id: never smaller than the one before it from this generator.
    public func next() -> UUIDv7 {
        let now = clock()
        let (millis, randA, randB) = state.withLock { s -> (UInt64, UInt16, UInt64) in
            let randB = s.random.next()
            if now > s.lastMillis {
                // Seed the counter in the lower half of its range so that
                // many ids can follow within the same millisecond.
                s.lastMillis = now
                s.lastRandA = UInt16(truncatingIfNeeded: s.random.next() & 0x07FF)
            } else if s.lastRandA < 0x0FFF {
                s.lastRandA += 1
            } else {
                // Counter exhausted: borrow the next millisecond, letting the
                // timestamp run slightly ahead rather than repeat (RFC 9562 6.2).
                s.lastMillis += 1
                s.lastRandA = 0
            }
            return (s.lastMillis, s.lastRandA, randB)
        }
        return UUIDv7(milliseconds: millis, randA: randA, randB: randB)
    }
}

/// Random 64-bit words from the operating system's CSPRNG, fetched 64 at a
/// time: one system call for every 64 words instead of one per word (a DPoP
/// proof needs an id per request, and the call was a twentieth of a
/// proof's time).
///
/// Words held here must never be handed out twice. A process that forks
/// would hand its copy out in the child as well, so a fork empties every
/// pool (`pthread_atfork`); `posix_spawn` and `exec` leave nothing behind.
struct RandomWords {
    /// Words fetched at a time.
    static let batch = 64

    private var words = [UInt64](repeating: 0, count: RandomWords.batch)
    private var used = RandomWords.batch
    private var generation = ForkGeneration.current

    /// The next word, fetching more when all are used (or the process forked).
    mutating func next() -> UInt64 {
        let now = ForkGeneration.current
        if used == words.count || generation != now {
            words.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                arc4random_buf(base, bytes.count)
            }
            used = 0
            generation = now
        }
        defer { used += 1 }
        return words[used]
    }
}

/// Counts the forks of this process (in the child), so that a child never
/// uses random words its parent fetched.
enum ForkGeneration {
    private static let counter = Atomic<UInt64>(0)
    private static let registered: Bool = {
        pthread_atfork(nil, nil, { ForkGeneration.bump() }) == 0
    }()

    /// The number of forks so far (registering the handlers on first use).
    static var current: UInt64 {
        _ = registered
        return counter.load(ordering: .acquiring)
    }

    private static func bump() { counter.add(1, ordering: .releasing) }
}
