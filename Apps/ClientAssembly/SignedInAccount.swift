import KeychainInterface
public import SharedStateInterface

/// An account: a server's origin and the username `share login` signed in
/// with there. This device keeps at most one account per server, and one of
/// them is the current account, the default of every command.
///
/// Both live with the secrets, in the keychain's access group, never in the
/// shared container: the container holds no names or ids of people and not
/// the server's address (its allow-list, `SharedStateKey`). The items are
/// `server.url` (device-wide: the current account's origin) and
/// `account.username` scoped to each account's origin. An account's
/// sessions are the `session.*` items scoped to the same origin.
public struct SignedInAccount: Sendable, Equatable {
    /// The server's origin (`https://host[:port]`).
    public var origin: String
    /// The username, when `share login` recorded one.
    public var username: String?

    /// - Parameters:
    ///   - origin: the server's origin.
    ///   - username: the username, if known.
    public init(origin: String, username: String?) {
        self.origin = origin
        self.username = username
    }

    /// How the shared state names this account (its recent targets and limits).
    public var scope: AccountScope { AccountScope(origin: origin, username: username) }

    /// The keychain item of the current account's origin.
    static func originItem(accessGroup: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: "server.url")
    }

    /// The keychain item of the username at `origin`.
    static func usernameItem(accessGroup: String, origin: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: usernameService, scope: origin)
    }

    static let usernameService = "account.username"

    /// The services of the session items (`SessionTokenStore` names them
    /// `session.<role>`): a server with one of them has an account here.
    static let sessionServicePrefix = "session."

    /// Reads the current account from a secret store.
    /// - Parameters:
    ///   - store: the secret store.
    ///   - accessGroup: the access group.
    /// - Returns: the account, or nil when no server is current.
    /// - Throws: `KeychainError` when the store cannot be read.
    static func read(from store: any SecretStore, accessGroup: String) throws -> SignedInAccount? {
        guard let origin = try store.read(originItem(accessGroup: accessGroup))?.utf8String, !origin.isEmpty else {
            return nil
        }
        return try account(at: origin, in: store, accessGroup: accessGroup)
    }

    /// The account at `origin`, with its username when one is recorded.
    static func account(at origin: String, in store: any SecretStore, accessGroup: String) throws
        -> SignedInAccount
    {
        let username = try store.read(usernameItem(accessGroup: accessGroup, origin: origin))?.utf8String
        return SignedInAccount(origin: origin, username: username.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The origins that have an account on this device: a recorded username
    /// or a stored session, sorted.
    static func origins(in store: any SecretStore, accessGroup: String) throws -> [String] {
        let scopes = try store.keys(accessGroup: accessGroup).filter {
            $0.service == usernameService || $0.service.hasPrefix(sessionServicePrefix)
        }.map(\.scope)
        return Set(scopes.filter { !$0.isEmpty }).sorted()
    }

    /// Writes the account and makes it the current one. The accounts at
    /// other servers stay; a previous username at the same server is replaced.
    /// - Throws: `KeychainError` when the store cannot be written.
    func write(to store: any SecretStore, accessGroup: String) throws {
        let usernameItem = Self.usernameItem(accessGroup: accessGroup, origin: origin)
        if let username {
            try store.write(SecretValue(utf8: username), for: usernameItem)
        } else {
            try store.delete(usernameItem)
        }
        // The origin last: a reader that finds it finds its username too.
        try store.write(SecretValue(utf8: origin), for: Self.originItem(accessGroup: accessGroup))
    }

    /// Forgets the account at `origin` (its username; the sessions are the
    /// caller's to delete), and the current account when it was this one.
    /// - Throws: `KeychainError` when the store cannot be changed.
    static func delete(at origin: String, from store: any SecretStore, accessGroup: String) throws {
        if try store.read(originItem(accessGroup: accessGroup))?.utf8String == origin {
            try store.delete(originItem(accessGroup: accessGroup))
        }
        try store.delete(usernameItem(accessGroup: accessGroup, origin: origin))
    }

    /// Moves what earlier versions kept in the shared state (`server.url`,
    /// `account.username`) into the keychain, once, and drops the other
    /// retired keys (nonce keys that carried the server's address; a nonce
    /// is renewed by the server's next answer). An account already in the
    /// keychain wins over the old state's.
    /// - Parameters:
    ///   - state: the shared state.
    ///   - store: the secret store.
    ///   - accessGroup: the access group.
    /// - Returns: whether the state held anything retired.
    /// - Throws: `KeychainError` or `SharedStateError`; the state keeps its
    ///   values then, and the next start tries again.
    @discardableResult
    static func migrate(from state: any SharedStateStore, to store: any SecretStore, accessGroup: String) throws
        -> Bool
    {
        try state.takeRetiredValues { retired in
            guard let origin = retired["server.url"], !origin.isEmpty,
                try read(from: store, accessGroup: accessGroup) == nil
            else { return }
            try SignedInAccount(origin: origin, username: retired["account.username"])
                .write(to: store, accessGroup: accessGroup)
        }
    }
}

/// An account of ``ClientAssembly/storedAccounts()``: whether it is the
/// current one. Its sessions are read through a ``ServerConnection``.
public struct StoredAccount: Sendable, Equatable {
    /// The server and the username.
    public var account: SignedInAccount
    /// Whether it is the current account (`server.url`).
    public var isCurrent: Bool
}

extension ClientAssembly {
    /// The current account, from the keychain: the one `share login` or
    /// `share accounts use` chose last.
    /// - Returns: the account, or nil when no server is current.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func signedInAccount() throws -> SignedInAccount? {
        try SignedInAccount.read(from: secretStore, accessGroup: Self.accessGroup)
    }

    /// The account at a server: its username when one is recorded (nil
    /// otherwise: then the server is simply not one this device knows a
    /// name for).
    /// - Parameter origin: the server's origin.
    /// - Returns: the account.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func account(at origin: String) throws -> SignedInAccount {
        try SignedInAccount.account(at: origin, in: secretStore, accessGroup: Self.accessGroup)
    }

    /// Every account on this device (a recorded username or a stored
    /// session), sorted by server, the current one marked.
    /// - Returns: the accounts.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func storedAccounts() throws -> [StoredAccount] {
        let current = try signedInAccount()?.origin
        var origins = try SignedInAccount.origins(in: secretStore, accessGroup: Self.accessGroup)
        if let current, !origins.contains(current) { origins = (origins + [current]).sorted() }
        return try origins.map { origin in
            StoredAccount(account: try account(at: origin), isCurrent: origin == current)
        }
    }

    /// Records the account `share login` signed in and makes it the current
    /// one; the accounts at other servers stay.
    /// - Parameter account: the server's origin and the username.
    /// - Throws: `KeychainError` when the keychain cannot be written.
    public func recordAccount(_ account: SignedInAccount) throws {
        try account.write(to: secretStore, accessGroup: Self.accessGroup)
    }

    /// Makes the account at `origin` the current one (`share accounts use`).
    /// - Parameter origin: the server's origin; its account must be stored.
    /// - Returns: the account, or nil when this device has none at `origin` (nothing changes then).
    /// - Throws: `KeychainError` when the keychain cannot be read or written.
    public func useAccount(at origin: String) throws -> SignedInAccount? {
        guard try SignedInAccount.origins(in: secretStore, accessGroup: Self.accessGroup).contains(origin) else {
            return nil
        }
        let chosen = try account(at: origin)
        try secretStore.write(
            SecretValue(utf8: origin), for: SignedInAccount.originItem(accessGroup: Self.accessGroup))
        return chosen
    }

    /// Forgets the account at `origin` (`share logout`): its username, and
    /// the choice of the current account when it was this one. Its sessions
    /// and its shared-state values are deleted by their owners.
    /// - Parameter origin: the server's origin.
    /// - Throws: `KeychainError` when the keychain cannot be changed.
    public func forgetAccount(at origin: String) throws {
        try SignedInAccount.delete(at: origin, from: secretStore, accessGroup: Self.accessGroup)
    }
}
