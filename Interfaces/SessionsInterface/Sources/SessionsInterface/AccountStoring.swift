public import ShareKitSharedStateInterface

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
    /// Which kind of server the account is on, as `share login` found it:
    /// the composition root builds that kind's backend for the account.
    public var serverKind: ServerKind

    /// - Parameters:
    ///   - origin: the server's origin.
    ///   - username: the username, if known.
    ///   - serverKind: the kind of server (a ShareKit server unless told).
    public init(origin: String, username: String?, serverKind: ServerKind = .sharekit) {
        self.origin = origin
        self.username = username
        self.serverKind = serverKind
    }

    /// How the shared state names this account (its recent targets and limits).
    public var scope: AccountScope { AccountScope(origin: origin, username: username) }
}

/// The kind of server an account is on. Each kind is a backend of its own
/// behind the same interfaces (sessions, uploads, messages, targets).
public enum ServerKind: Sendable, Hashable, CustomStringConvertible {
    /// A ShareKit server (`share-server`): DPoP-bound sessions, the API of docs/protocol.md.
    case sharekit
    /// A Matrix homeserver, reached through the client-server API at
    /// `homeserver` (the base URL `/.well-known/matrix/client` named, or the origin itself).
    case matrix(homeserver: String)

    /// How the keychain keeps it: `sharekit`, or `matrix` and the base URL.
    public var storedValue: String {
        switch self {
        case .sharekit: return "sharekit"
        case .matrix(let homeserver): return "matrix " + homeserver
        }
    }

    /// Reads a stored value; anything unknown (or nothing) is a ShareKit
    /// server, the only kind earlier versions knew.
    /// - Parameter stored: the keychain's value.
    public init(storedValue stored: String?) {
        guard let stored, stored.hasPrefix("matrix "), stored.count > 7 else {
            self = .sharekit
            return
        }
        self = .matrix(homeserver: String(stored.dropFirst(7)))
    }

    /// `sharekit` or `matrix`, as `share status` and `--json` say it.
    public var name: String {
        switch self {
        case .sharekit: return "sharekit"
        case .matrix: return "matrix"
        }
    }

    /// Same as ``name``.
    public var description: String { name }
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
