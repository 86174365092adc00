import Foundation
import ShareKitCore
import Testing

@Suite("UUIDv7 (RFC 9562)")
struct UUIDv7Tests {
    @Test("version and variant bits, canonical text form, round trip")
    func layout() throws {
        let id = UUIDv7()
        #expect(id.bytes.count == 16)
        #expect(id.bytes[6] >> 4 == 7)
        #expect(id.bytes[8] >> 6 == 0b10)
        let text = id.description
        #expect(text.count == 36)
        #expect(text == text.lowercased())
        #expect(try UUIDv7(string: text) == id)
        #expect(try UUIDv7(string: text.uppercased()) == id)
    }

    @Test("the RFC 9562 appendix A.6 example decodes to its timestamp")
    func rfcExample() throws {
        // Example from RFC 9562 A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F, 2022-02-22 19:22:22 UTC.
        let id = try UUIDv7(string: "017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
        #expect(id.milliseconds == 0x017F_22E2_79B0)
        #expect(UUIDv7(milliseconds: 0x017F_22E2_79B0, randA: 0xCC3, randB: 0x18C4_DC0C_0C07_398F) == id)
    }

    @Test("the timestamp is the current time")
    func timestamp() {
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        let id = UUIDv7()
        let after = UInt64(Date().timeIntervalSince1970 * 1000) + 1
        #expect(id.milliseconds >= before && id.milliseconds <= after)
    }

    @Test("monotonic when the clock stands still or steps back")
    func monotonic() {
        let clockValues = [1000, 1000, 1000, 999, 500, 1001, 1001] as [UInt64]
        let counter = Counter()
        let gen = UUIDv7Generator(clock: { clockValues[min(counter.next(), clockValues.count - 1)] })
        var previous = gen.next()
        for _ in 0..<5000 {
            let id = gen.next()
            #expect(previous < id)
            previous = id
        }
    }

    @Test("the random part of each id is new, across many batches of random words")
    func randomPartsNeverRepeat() {
        // A clock that stands still: only the random bits (rand_b) tell the ids apart beyond the counter.
        let gen = UUIDv7Generator(clock: { 1000 })
        let randomParts = (0..<5000).map { _ in gen.next().bytes[8...].map { $0 } }
        #expect(Set(randomParts).count == randomParts.count)
        #expect(Set(randomParts.map { $0.prefix(2) }).count > 1000, "spread over the whole range, not a counter")
    }

    @Test("ids made concurrently on many threads are unique and each thread sees them increase")
    func concurrentUniqueness() async {
        let perTask = 2000
        let all = await withTaskGroup(of: [UUIDv7].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<perTask).map { _ in UUIDv7() } }
            }
            var out: [[UUIDv7]] = []
            for await batch in group { out.append(batch) }
            return out
        }
        for batch in all {
            #expect(zip(batch, batch.dropFirst()).allSatisfy { $0 < $1 })
        }
        #expect(Set(all.joined()).count == 8 * perTask)
    }

    @Test(
        "other versions and malformed text are refused",
        arguments: [
            "not-a-uuid", "017F22E2-79B0-4CC3-98C4-DC0C0C07398F", "017F22E2-79B0-7CC3-18C4-DC0C0C07398F", "",
        ])
    func refuses(text: String) {
        #expect(throws: ShareCoreError.self) { try UUIDv7(string: text) }
    }

    @Test("JSON encodes as the canonical string")
    func codable() throws {
        let id = UUIDv7()
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(id)\"]")
        #expect(try JSONDecoder().decode([UUIDv7].self, from: data) == [id])
    }
}

/// A thread-safe step counter for the injected clock.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
