import Foundation
import ShareKitCryptoInterface
import ShareKitDPoP
import ShareKitDPoPInterface
import ShareKitDPoPInterfaceTesting
import ShareKitKeychainInterface
import ShareKitKeychainInterfaceTesting
import ShareKitSharedStateInterface
import ShareKitSharedStateInterfaceTesting
import ShareKitSystemTesting
import Synchronization
import Testing

@Suite("Device key in the secret store")
struct DeviceKeyStoreTests {
    let item = DeviceKeyStore.defaultItem(accessGroup: "group.test")

    @Test("created on first use, stored as a 32-byte scalar, loaded again by another store")
    func createThenLoad() throws {
        let secrets = InMemorySecretStore()
        let first = DeviceKeyStore(secretStore: secrets, item: item, crypto: TestKit.crypto, settleTime: .zero)
        let key = try first.signingKey()
        #expect(try secrets.read(item)?.count == 32)
        #expect(item.service == "dpop.device-key" && item.account == "default")
        let second = DeviceKeyStore(secretStore: secrets, item: item, crypto: TestKit.crypto, settleTime: .zero)
        #expect(try second.signingKey().publicKey == key.publicKey)
        #expect(try first.signingKey().publicKey == key.publicKey)
        #expect(secrets.writeCount == 1)
        let signer = try second.proofSigner(clock: TestKit.clock)
        #expect(signer.thumbprint == (try first.proofSigner().thumbprint))
    }

    @Test("an item that is not a P-256 scalar is reported, not replaced")
    func corrupt() throws {
        let secrets = InMemorySecretStore()
        try secrets.write(SecretValue(bytes: [1, 2, 3]), for: item)
        let store = DeviceKeyStore(secretStore: secrets, item: item, crypto: TestKit.crypto)
        #expect(throws: DPoPError.deviceKeyCorrupt(item.description)) { try store.signingKey() }
        #expect(try secrets.read(item) == SecretValue(bytes: [1, 2, 3]))
    }

    @Test("threads of one process asking at once share one load and one write")
    func oneProcessManyThreads() async throws {
        let secrets = InMemorySecretStore(writeDelay: 0.01)
        let store = DeviceKeyStore(secretStore: secrets, item: item, crypto: TestKit.crypto, settleTime: .zero)
        let keys = try await Self.race(count: 8) { store }
        #expect(Set(keys).count == 1)
        #expect(secrets.writeCount == 1)
    }

    /// Many creators at once, each its own store as separate processes would
    /// have: with the cross-process lock exactly one key is written.
    @Test("racing creators with the lock: one write, one key")
    func raceWithLock() async throws {
        let secrets = InMemorySecretStore(writeDelay: 0.01)
        let locks = InProcessLocks()
        let keys = try await Self.race(count: 8) {
            DeviceKeyStore(secretStore: secrets, item: item, crypto: TestKit.crypto, locks: locks)
        }
        #expect(Set(keys).count == 1)
        #expect(secrets.writeCount == 1)
        #expect(try secrets.read(item).map { _ in true } == true)
    }

    /// Without the lock several creators may write, but all adopt the key
    /// that is stored after the settle time.
    @Test("racing creators without the lock: write, settle, re-read; all end with the stored key")
    func raceWithoutLock() async throws {
        let secrets = InMemorySecretStore(writeDelay: 0.01)
        let keys = try await Self.race(count: 8) {
            DeviceKeyStore(secretStore: secrets, item: item, crypto: TestKit.crypto, settleTime: .milliseconds(100))
        }
        #expect(Set(keys).count == 1)
        let stored = try #require(try secrets.read(item))
        let storedKey = try stored.withBytes { try TestKit.crypto.importP256SigningKey(privateScalar: $0) }
        #expect(keys.first == storedKey.publicKey)
    }

    /// Starts all creators together on separate threads and returns the public keys they end up with.
    static func race(count: Int, _ make: @escaping @Sendable () -> DeviceKeyStore) async throws -> [P256PublicKey] {
        let start = StartSignal()
        return try await withThrowingTaskGroup(of: P256PublicKey.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let store = make()
                    while !start.isSet { try await Task.sleep(for: .milliseconds(1)) }
                    return try store.signingKey().publicKey
                }
            }
            try await Task.sleep(for: .milliseconds(20))
            start.set()
            var keys: [P256PublicKey] = []
            for try await key in group { keys.append(key) }
            return keys
        }
    }
}

/// A flag that releases racing tasks together.
final class StartSignal: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}
