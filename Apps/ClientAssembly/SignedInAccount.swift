public import KeychainInterface
public import SharedStateInterface

/// The account `share login` chose: the server's origin and the username.
///
/// Both live with the secrets, in the keychain's access group, never in the
/// shared container: the container holds no names or ids of people and not
/// the server's address (its allow-list, `SharedStateKey`). The items are
/// `server.url` (device-wide: the one server the programs talk to) and
/// `account.username` scoped to that origin.
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

    /// The keychain item of the server's origin.
    static func originItem(accessGroup: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: "server.url")
    }

    /// The keychain item of the username at `origin`.
    static func usernameItem(accessGroup: String, origin: String) -> SecretItemKey {
        SecretItemKey(accessGroup: accessGroup, service: "account.username", scope: origin)
    }

    /// Reads the account from a secret store.
    /// - Parameters:
    ///   - store: the secret store.
    ///   - accessGroup: the access group.
    /// - Returns: the account, or nil when no server is recorded.
    /// - Throws: `KeychainError` when the store cannot be read.
    static func read(from store: any SecretStore, accessGroup: String) throws -> SignedInAccount? {
        guard let origin = try store.read(originItem(accessGroup: accessGroup))?.utf8String, !origin.isEmpty else {
            return nil
        }
        let username = try store.read(usernameItem(accessGroup: accessGroup, origin: origin))?.utf8String
        return SignedInAccount(origin: origin, username: username.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Writes the account, replacing the one recorded (whose username item goes).
    /// - Throws: `KeychainError` when the store cannot be written.
    func write(to store: any SecretStore, accessGroup: String) throws {
        if let previous = try Self.read(from: store, accessGroup: accessGroup), previous.origin != origin {
            try store.delete(Self.usernameItem(accessGroup: accessGroup, origin: previous.origin))
        }
        let usernameItem = Self.usernameItem(accessGroup: accessGroup, origin: origin)
        if let username {
            try store.write(SecretValue(utf8: username), for: usernameItem)
        } else {
            try store.delete(usernameItem)
        }
        // The origin last: a reader that finds it finds its username too.
        try store.write(SecretValue(utf8: origin), for: Self.originItem(accessGroup: accessGroup))
    }

    /// Deletes the recorded account.
    /// - Throws: `KeychainError` when the store cannot be changed.
    static func delete(from store: any SecretStore, accessGroup: String) throws {
        if let previous = try read(from: store, accessGroup: accessGroup) {
            try store.delete(usernameItem(accessGroup: accessGroup, origin: previous.origin))
        }
        try store.delete(originItem(accessGroup: accessGroup))
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

extension ClientAssembly {
    /// The account `share login` chose, from the keychain.
    /// - Returns: the account, or nil when no server is recorded.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    public func signedInAccount() throws -> SignedInAccount? {
        try SignedInAccount.read(from: secretStore, accessGroup: Self.accessGroup)
    }

    /// Records the account `share login` signed in, in the keychain.
    /// - Parameter account: the server's origin and the username.
    /// - Throws: `KeychainError` when the keychain cannot be written.
    public func recordAccount(_ account: SignedInAccount) throws {
        try account.write(to: secretStore, accessGroup: Self.accessGroup)
    }

    /// Forgets the recorded account (`share logout`).
    /// - Throws: `KeychainError` when the keychain cannot be changed.
    public func forgetAccount() throws {
        try SignedInAccount.delete(from: secretStore, accessGroup: Self.accessGroup)
    }
}
