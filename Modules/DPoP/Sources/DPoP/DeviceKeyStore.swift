import Foundation
public import ShareKitCryptoInterface
public import ShareKitDPoPInterface
public import ShareKitKeychainInterface
public import ShareKitSharedStateInterface
import Synchronization

/// The device's DPoP key: one P-256 key per access group, kept as its
/// 32-byte private scalar in a secret store item, created on first use.
///
/// The CLI and the daemon share the key (they share the keychain group), so
/// both may find it missing at the same moment and create one. Both must
/// end up signing with the same key, or one of them is bound to a key the
/// other cannot use. Two ways to get there:
///
/// - With `locks` (the app group's cross-process locks), creation happens
///   under the lock `dpop.device-key`: read, and only if still missing
///   generate and write, then read back. Exactly one key is ever stored.
/// - Without locks, the store writes its key, waits `settleTime` and reads
///   the item back, using whatever is stored then. Any other process that
///   found the item missing has written its own key by then, provided its
///   read-to-write time is below `settleTime` (it generates before a second
///   read and writes only if the item is still missing, so that time is
///   one store write). The last write wins, and every creator adopts it.
///
/// The key is loaded once per ``DeviceKeyStore`` and kept in memory; threads
/// of one process that ask at once wait for a single load.
public final class DeviceKeyStore: Sendable {
    /// The secret store service of the item, `dpop.device-key`.
    public static let defaultService = "dpop.device-key"
    /// The cross-process lock taken while creating the key.
    public static let lockName = "dpop.device-key"

    /// The item that holds the key.
    public let item: SecretItemKey

    private let secretStore: any SecretStore
    private let crypto: any CryptoProvider
    private let locks: (any CrossProcessLocking)?
    private let settleTime: Duration
    private let loaded = Mutex<(any P256SigningKey)?>(nil)

    /// The default item for an access group: service `dpop.device-key`,
    /// account `default`, no server scope (the key is device-wide).
    /// - Parameter accessGroup: the app group's keychain access group.
    /// - Returns: the item key.
    public static func defaultItem(accessGroup: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: defaultService)
    }

    /// Makes a store.
    /// - Parameters:
    ///   - secretStore: the keychain group's store.
    ///   - item: the item holding the key.
    ///   - crypto: the provider that generates and imports the key.
    ///   - locks: the app group's cross-process locks; nil to rely on
    ///     write, settle and re-read.
    ///   - settleTime: without locks, how long to wait before reading back a new key.
    public init(
        secretStore: any SecretStore, item: SecretItemKey, crypto: any CryptoProvider,
        locks: (any CrossProcessLocking)? = nil, settleTime: Duration = .milliseconds(250)
    ) {
        self.secretStore = secretStore
        self.item = item
        self.crypto = crypto
        self.locks = locks
        self.settleTime = settleTime
    }

    /// The device key, loading it or creating and storing it on first use.
    /// - Returns: the key.
    /// - Throws: ``ShareKitDPoPInterface/DPoPError/deviceKeyCorrupt(_:)`` when the
    ///   item holds something that is not a P-256 scalar,
    ///   ``ShareKitDPoPInterface/DPoPError/storeFailure(_:)`` when the store or lock fails,
    ///   ``ShareKitDPoPInterface/DPoPError/signingFailed(_:)`` when no key can be generated.
    public func signingKey() throws(DPoPError) -> any P256SigningKey {
        // Holding the mutex while loading serializes the threads of this
        // process: only one of them reads, and if need be creates, the key.
        try loaded.withLock { (cached: inout (any P256SigningKey)?) throws(DPoPError) -> any P256SigningKey in
            if let cached { return cached }
            let key = try loadOrCreate()
            cached = key
            return key
        }
    }

    /// A proof signer with the device key.
    /// - Parameter clock: the current Unix time in seconds, for `iat`.
    /// - Returns: the signer.
    /// - Throws: what ``signingKey()`` throws.
    public func proofSigner(clock: @escaping @Sendable () -> Int64 = DPoPClock.system) throws(DPoPError)
        -> ES256ProofSigner
    {
        try ES256ProofSigner(key: signingKey(), crypto: crypto, clock: clock)
    }

    // MARK: Loading and creating

    private func loadOrCreate() throws(DPoPError) -> any P256SigningKey {
        if let existing = try read() { return existing }
        if let locks {
            do {
                return try locks.withExclusiveLock(named: Self.lockName) { () throws -> any P256SigningKey in
                    if let existing = try read() { return existing }
                    try write(try generate())
                    guard let stored = try read() else {
                        throw DPoPError.storeFailure("\(item) vanished after writing")
                    }
                    return stored
                }
            } catch let error as DPoPError {
                throw error
            } catch {
                throw .storeFailure("\(error)")
            }
        }
        let candidate = try generate()
        // Someone may have stored a key while this one was generated.
        if let existing = try read() { return existing }
        try write(candidate)
        Thread.sleep(
            forTimeInterval: Double(settleTime.components.seconds) + Double(settleTime.components.attoseconds) / 1e18)
        guard let stored = try read() else { throw .storeFailure("\(item) vanished after writing") }
        return stored
    }

    private func generate() throws(DPoPError) -> any P256SigningKey {
        do {
            return try crypto.generateP256SigningKey()
        } catch {
            throw .signingFailed("cannot generate a P-256 key: \(error)")
        }
    }

    private func read() throws(DPoPError) -> (any P256SigningKey)? {
        let value: SecretValue?
        do {
            value = try secretStore.read(item)
        } catch {
            throw .storeFailure("\(error)")
        }
        guard let value else { return nil }
        do {
            return try value.withBytes { try crypto.importP256SigningKey(privateScalar: $0) }
        } catch CryptoError.invalidLength, CryptoError.invalidPrivateScalar {
            throw .deviceKeyCorrupt(item.description)
        } catch {
            throw .signingFailed("cannot import the device key: \(error)")
        }
    }

    private func write(_ key: any P256SigningKey) throws(DPoPError) {
        do {
            let scalar = try key.exportPrivateScalar()
            try secretStore.write(SecretValue(bytes: scalar), for: item)
        } catch {
            throw .storeFailure("\(error)")
        }
    }
}
