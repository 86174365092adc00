public import ShareKitKeychainInterface
public import ShareKitSessionsInterface
public import ShareKitSharedStateInterface

/// The accounts of this device in the keychain's access group, beside their
/// sessions: `server.url` (device-wide: the current account's origin) and
/// `account.username` scoped to each account's origin. A server with a
/// stored session (``SessionTokenStore``'s `session.<role>` items) has an
/// account too, even without a username.
public struct KeychainAccountStore: AccountStoring {
    private let store: any SecretStore
    private let accessGroup: String

    /// - Parameters:
    ///   - store: the secret store.
    ///   - accessGroup: the access group every ShareKit program shares.
    public init(store: any SecretStore, accessGroup: String) {
        self.store = store
        self.accessGroup = accessGroup
    }

    /// The keychain item of the current account's origin.
    private var originItem: SecretItemKey { SecretItemKey(accessGroup: accessGroup, service: "server.url") }

    /// The keychain item of the username at `origin`.
    private func usernameItem(origin: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: Self.usernameService, scope: origin)
    }

    private static let usernameService = "account.username"

    /// The kind of server, beside the username; absent for a ShareKit server
    /// (so an account an earlier version recorded reads as one).
    private func kindItem(origin: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: "account.server_kind", scope: origin)
    }

    /// The services of the session items: a server with one of them has an account here.
    private static let sessionServicePrefix = "session."

    public func current() throws -> SignedInAccount? {
        guard let origin = try store.read(originItem)?.utf8String, !origin.isEmpty else { return nil }
        return try account(at: origin)
    }

    public func account(at origin: String) throws -> SignedInAccount {
        let username = try store.read(usernameItem(origin: origin))?.utf8String
        let kind = ServerKind(storedValue: try store.read(kindItem(origin: origin))?.utf8String)
        return SignedInAccount(
            origin: origin, username: username.flatMap { $0.isEmpty ? nil : $0 }, serverKind: kind)
    }

    public func origins() throws -> [String] {
        let scopes = try store.keys(accessGroup: accessGroup).filter {
            $0.service == Self.usernameService || $0.service.hasPrefix(Self.sessionServicePrefix)
        }.map(\.scope)
        return Set(scopes.filter { !$0.isEmpty }).sorted()
    }

    public func storedAccounts() throws -> [StoredAccount] {
        let current = try current()?.origin
        var origins = try origins()
        if let current, !origins.contains(current) { origins = (origins + [current]).sorted() }
        return try origins.map { origin in
            StoredAccount(account: try account(at: origin), isCurrent: origin == current)
        }
    }

    public func record(_ account: SignedInAccount) throws {
        let usernameItem = usernameItem(origin: account.origin)
        if let username = account.username {
            try store.write(SecretValue(utf8: username), for: usernameItem)
        } else {
            try store.delete(usernameItem)
        }
        if account.serverKind == .sharekit {
            try store.delete(kindItem(origin: account.origin))
        } else {
            try store.write(SecretValue(utf8: account.serverKind.storedValue), for: kindItem(origin: account.origin))
        }
        // The origin last: a reader that finds it finds its username too.
        try store.write(SecretValue(utf8: account.origin), for: originItem)
    }

    public func use(at origin: String) throws -> SignedInAccount? {
        guard try origins().contains(origin) else { return nil }
        let chosen = try account(at: origin)
        try store.write(SecretValue(utf8: origin), for: originItem)
        return chosen
    }

    public func forget(at origin: String) throws {
        if try store.read(originItem)?.utf8String == origin {
            try store.delete(originItem)
        }
        try store.delete(usernameItem(origin: origin))
        try store.delete(kindItem(origin: origin))
    }

    /// Also drops the retired nonce keys that carried the server's address
    /// (a nonce is renewed by the server's next answer).
    @discardableResult
    public func moveRetiredAccount(from state: any SharedStateStore) throws -> Bool {
        try state.takeRetiredValues { retired in
            guard let origin = retired["server.url"], !origin.isEmpty, try current() == nil else { return }
            try record(SignedInAccount(origin: origin, username: retired["account.username"]))
        }
    }
}
