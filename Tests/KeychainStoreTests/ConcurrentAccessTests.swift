import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

@Suite("file keychain: several processes at once")
struct ConcurrentAccessTests {
    @Test("6 processes writing and reading one item never see a torn value")
    func noTornValues() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let started = Date()
        // Start all before waiting for any, so writers and readers overlap.
        let helpers = try (0..<6).map { writer in
            try HelperProcess(["keychain-hammer", base, String(writer), "150"])
        }
        for outcome in helpers.map({ $0.finish() }) {
            #expect(outcome.status == 0, "helper failed: \(outcome.stderr)")
            #expect(outcome.stdout == "done 300\n")
        }
        print(
            "6 processes x 150 writes + 300 reads took \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        // No temporary file survives, and the item is one writer's last value, whole.
        let group = base + "/hammer.group"
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: group).sorted() == [
                ".lock", "hammer.item~default~.item",
            ])
        let last = try FileKeychain(directory: base).read(
            SecretItemKey(accessGroup: "hammer.group", service: "hammer.item"))
        let text = try #require(last?.utf8String)
        #expect((0..<6).contains { text.hasPrefix("w\($0)-i149:") })
    }

    @Test("threads of one process writing different items of one group all succeed")
    func threads() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let key = SecretItemKey(accessGroup: "g", service: "item\(index)")
            for round in 0..<10 {
                try? store.write(SecretValue(utf8: "\(index)-\(round)"), for: key)
            }
        }
        #expect(try store.keys(accessGroup: "g").count == 16)
        for index in 0..<16 {
            #expect(
                try store.read(SecretItemKey(accessGroup: "g", service: "item\(index)"))
                    == SecretValue(utf8: "\(index)-9"))
        }
    }
}
