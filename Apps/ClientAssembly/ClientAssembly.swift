public import ShareKitCryptoInterface
public import ShareKitDPoP
public import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitOpenSSLCrypto
import ShareKitSessions
public import ShareKitSessionsInterface
import ShareKitSharedState
public import ShareKitSharedStateInterface

/// The client side's composition root, shared by `share` and `share-daemon`:
/// it picks the concrete keychain, container and crypto implementations and
/// hands out the services built on them.
///
/// Everything is chosen from the environment so a test (or a person with
/// two accounts) can point a program at its own keychain and container:
/// `SHAREKIT_KEYCHAIN` (`file` or `secret-service`), `SHAREKIT_KEYCHAIN_DIR`,
/// `SHAREKIT_CONTAINER_DIR`, else the XDG data directory.
public final class ClientAssembly: Sendable {
    /// The keychain access group every ShareKit program shares, the
    /// counterpart of the iOS app group's keychain group.
    public static let accessGroup = "sharekit"

    /// The secret store of the access group.
    public let secretStore: any SecretStore
    /// The shared container (inbox, state, locks).
    public let container: any SharedContainer
    /// The cryptographic primitives (libcrypto).
    public let crypto: any CryptoProvider
    /// The device key in the keychain, created on first use.
    public let deviceKeys: DeviceKeyStore
    /// The accounts of this device, in the keychain beside their sessions.
    public let accounts: any AccountStoring
    /// How old an inbox entry may get before `share inbox list`, `share
    /// status` and the daemon report it: `SHAREKIT_INBOX_MAX_AGE_DAYS`
    /// (a positive number of days), seven days unless set.
    public var inboxMaximumAge: Duration {
        guard let text = environment["SHAREKIT_INBOX_MAX_AGE_DAYS"], let days = Double(text), days > 0 else {
            return .seconds(7 * 24 * 3600)
        }
        return .seconds(Int64(days * 24 * 3600))
    }

    /// The longest a request of a send (session, upload part, message) may
    /// go without moving a byte before it counts as failed:
    /// `SHAREKIT_HTTP_STALL_SECONDS` (a whole number from 1 to 3600); nil
    /// (unset, or not such a number) keeps each request's own limit
    /// (15 to 30 s). A lower value makes a silent server a retry sooner;
    /// `tools/chaos` uses it to delay requests beyond the clients' timeouts.
    public var requestStallLimit: Duration? {
        guard let text = environment["SHAREKIT_HTTP_STALL_SECONDS"], let seconds = Int(text),
            (1...3600).contains(seconds)
        else { return nil }
        return .seconds(seconds)
    }

    /// The environment the services were chosen from (child processes and
    /// the daemon's control socket use it too).
    public let environment: [String: String]

    /// Builds the client's services from an environment.
    ///
    /// A container that an earlier version left names or the server's
    /// address in (`account.username`, `server.url`) has them moved into
    /// the keychain here, once (``ShareKitSessionsInterface/AccountStoring/moveRetiredAccount(from:)``); recent targets and
    /// limits it kept without an account go to the account they can only
    /// have come from, or are dropped
    /// (`SharedStateStore.moveUnscopedAccountValues(toOwner:)`, which reads
    /// the keychain for that account only when something is left to move).
    /// - Parameter environment: the process environment (or a test's).
    /// - Throws: `KeychainError` when the keychain backend is unknown,
    ///   unreachable or unsafe, or the account cannot be moved into it;
    ///   `SharedStateError` when the container directory cannot be created
    ///   or has unsafe permissions.
    public init(environment: [String: String]) throws {
        self.environment = environment
        secretStore = try KeychainStoreFactory.makeStore(environment: environment)
        let container = try SharedContainerDirectory(environment: environment)
        let accounts = KeychainAccountStore(store: secretStore, accessGroup: Self.accessGroup)
        try accounts.moveRetiredAccount(from: container.state)
        // Best effort: until it succeeds the old values stay where no account reads them.
        _ = try? container.state.moveUnscopedAccountValues(toOwner: { try Self.ownerOfUnscopedValues(in: accounts) })
        self.accounts = accounts
        self.container = container
        crypto = OpenSSLCryptoProvider()
        deviceKeys = DeviceKeyStore(
            secretStore: secretStore, item: DeviceKeyStore.defaultItem(accessGroup: Self.accessGroup),
            crypto: crypto, locks: container.locks)
    }

    /// The account that what earlier versions kept without one (recent
    /// targets, limits) can only have come from: the current account, when
    /// no other server has an account on this device. Otherwise nobody can
    /// tell which server it described: nil, and it is dropped.
    /// - Parameter accounts: the accounts of this device.
    /// - Throws: `KeychainError` when the accounts cannot be read (nothing moves then).
    private static func ownerOfUnscopedValues(in accounts: some AccountStoring) throws -> AccountScope? {
        let current = try accounts.current()
        let origins = try accounts.origins()
        guard let current, origins.allSatisfy({ $0 == current.origin }) else { return nil }
        return current.scope
    }
}
