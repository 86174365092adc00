public import SharedStateInterface

/// An account: a server's origin and the username `share login` signed in
/// with there. This device keeps at most one account per server, and one of
/// them is the current account, the default of every command.
///
/// Both live with the secrets, in the keychain's access group, never in the
/// shared container: the container holds no names or ids of people and not
/// the server's address (its allow-list, `SharedStateKey`). An account's
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
}

/// An account of ``AccountStoring/storedAccounts()``: whether it is the
/// current one. Its sessions are read through its ``SessionTokenStorage``.
public struct StoredAccount: Sendable, Equatable {
    /// The server and the username.
    public var account: SignedInAccount
    /// Whether it is the current account.
    public var isCurrent: Bool

    /// - Parameters:
    ///   - account: the server and the username.
    ///   - isCurrent: whether it is the current account.
    public init(account: SignedInAccount, isCurrent: Bool) {
        self.account = account
        self.isCurrent = isCurrent
    }
}

/// The accounts of this device, kept beside their sessions in the
/// keychain's access group.
public protocol AccountStoring: Sendable {
    /// The current account: the one `share login` or `share accounts use` chose last.
    /// - Returns: the account, or nil when no server is current.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    func current() throws -> SignedInAccount?

    /// The account at a server, with its username when one is recorded.
    /// - Parameter origin: the server's origin.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    func account(at origin: String) throws -> SignedInAccount

    /// The origins that have an account on this device (a recorded username
    /// or a stored session), sorted.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    func origins() throws -> [String]

    /// Every account on this device, sorted by server, the current one marked.
    /// - Throws: `KeychainError` when the keychain cannot be read.
    func storedAccounts() throws -> [StoredAccount]

    /// Records an account and makes it the current one; the accounts at
    /// other servers stay, a previous username at the same server is replaced.
    /// - Throws: `KeychainError` when the keychain cannot be written.
    func record(_ account: SignedInAccount) throws

    /// Makes the account at `origin` the current one.
    /// - Returns: the account, or nil when this device has none at `origin` (nothing changes then).
    /// - Throws: `KeychainError` when the keychain cannot be read or written.
    func use(at origin: String) throws -> SignedInAccount?

    /// Forgets the account at `origin` (its username; the sessions are their
    /// store's to delete), and the current account when it was this one.
    /// - Throws: `KeychainError` when the keychain cannot be changed.
    func forget(at origin: String) throws

    /// Moves what earlier versions kept in the shared state (`server.url`,
    /// `account.username`) into the keychain, once, and drops the other
    /// retired keys. An account already in the keychain wins over the old state's.
    /// - Parameter state: the shared state.
    /// - Returns: whether the state held anything retired.
    /// - Throws: `KeychainError` or `SharedStateError`; the state keeps its
    ///   values then, and the next start tries again.
    @discardableResult
    func moveRetiredAccount(from state: any SharedStateStore) throws -> Bool
}
