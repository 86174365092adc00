import Foundation
import ShareKitClientAssembly
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import Synchronization

/// The account share-daemon serves, following the current account of the
/// keychain: `share login` at another server, `share accounts use` and
/// `share logout` change it, and the daemon follows at its next look
/// without a restart. It looks whenever a program wakes it through the
/// control socket (`share login`, `share logout` and `share accounts use`
/// do), before every drain pass, and at least once a minute, so a wake-up
/// that was lost delays a switch, never loses it.
///
/// It also keeps one connection per server, so that a share queued for
/// another server than the served one goes there with the session stored
/// for that server (a share goes to the server it was made for, whichever
/// account is current when it is sent).
final class AccountFollower: Sendable {
    /// What changed at a look.
    enum Change: Sendable, Equatable {
        /// The daemon serves this account from now on.
        case serves(SignedInAccount)
        /// No account is current any more (logged out of it).
        case servesNone
    }

    private struct Served {
        /// The account served, nil when none is current.
        var account: SignedInAccount?
        /// Its connection; the last account's while none is served.
        var connection: ServerConnection
        /// Counts the changes, so a loop can tell that the account changed under it.
        var generation = 0
        /// The event poll under way, cancelled when the account changes.
        var poll: Task<String?, any Error>?
    }

    private let assembly: ClientAssembly
    private let served: Mutex<Served>
    private let connections: Mutex<[String: ServerConnection]>

    /// - Parameters:
    ///   - assembly: the client assembly.
    ///   - account: the account current when the daemon starts.
    /// - Throws: what ``ClientAssembly/connection(to:loadsLibraryEarly:)`` throws.
    init(assembly: ClientAssembly, account: SignedInAccount) throws {
        self.assembly = assembly
        let connection = try assembly.connection(to: account.origin)
        served = Mutex(Served(account: account, connection: connection))
        connections = Mutex([account.origin: connection])
    }

    /// The account served now, nil when none is current.
    var account: SignedInAccount? { served.withLock { $0.account } }

    /// The connection of the account served (the last one's while none is).
    var connection: ServerConnection { served.withLock { $0.connection } }

    /// Changes at every switch of the account served.
    var generation: Int { served.withLock { $0.generation } }

    /// Looks at the keychain's current account and serves it when it changed.
    /// - Returns: the change, nil when the account is the same (or the keychain cannot be read now).
    func follow() -> Change? {
        let current: SignedInAccount?
        do {
            current = try assembly.accounts.current()
        } catch {
            return nil  // the keychain is busy or broken: keep serving, look again later
        }
        let connection = current.flatMap { try? self.connection(to: $0.origin) }
        if current != nil, connection == nil { return nil }
        return served.withLock { state -> Change? in
            guard state.account != current else { return nil }
            state.account = current
            if let connection { state.connection = connection }
            state.generation += 1
            state.poll?.cancel()
            state.poll = nil
            return current.map(Change.serves) ?? .servesNone
        }
    }

    /// Runs the event poll of the account served as a task the next switch cancels.
    /// - Parameter poll: the poll.
    /// - Returns: its result; a cancelled poll throws `CancellationError` or the client's cancellation.
    func trackPoll(_ poll: @escaping @Sendable () async throws -> String?) async throws -> String? {
        let task = Task { try await poll() }
        served.withLock { $0.poll = task }
        defer { served.withLock { if $0.poll == task { $0.poll = nil } } }
        // The poll is a task of its own (a switch cancels it): stopping the daemon cancels it too.
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// The connection for a share queued for `origin`: the served account's,
    /// or the one of another account on this device whose parent session is
    /// stored; nil when this device has no session there.
    func sendingConnection(for origin: String) -> ServerConnection? {
        let current = served.withLock { $0 }
        if current.account?.origin == origin { return current.connection }
        guard let connection = try? connection(to: origin),
            ((try? connection.storage.read(.parent)) ?? nil) != nil
        else { return nil }
        return connection
    }

    /// The account at `origin`: the served one, or the one recorded there.
    func account(at origin: String) -> SignedInAccount {
        if let account = account, account.origin == origin { return account }
        return (try? assembly.accounts.account(at: origin)) ?? SignedInAccount(origin: origin, username: nil)
    }

    /// The account at `origin` as the shared state names it (its recent targets and limits).
    func scope(for origin: String) -> AccountScope { account(at: origin).scope }

    /// Whether any account on this device has a parent session (there is a
    /// share the daemon could send).
    var anyAccountHasSession: Bool {
        let accounts = (try? assembly.accounts.storedAccounts()) ?? []
        return accounts.contains { stored in
            guard let connection = try? connection(to: stored.account.origin) else { return false }
            return ((try? connection.storage.read(.parent)) ?? nil) != nil
        }
    }

    /// One connection per server, made on first use.
    private func connection(to origin: String) throws -> ServerConnection {
        if let known = connections.withLock({ $0[origin] }) { return known }
        let made = try assembly.connection(to: origin)
        return connections.withLock { known in
            if let raced = known[origin] { return raced }
            known[origin] = made
            return made
        }
    }
}

extension Daemon {
    /// Follows the current account (``AccountFollower/follow()``): on a
    /// change, says so in the log, forgets what it knew about the previous
    /// server and wakes every service, so the new account is served at once
    /// (its child session, limits, push registration, event feed, waiting shares).
    /// - Returns: whether the account changed.
    @discardableResult
    func followAccount() -> Bool {
        guard let change = accounts.follow() else { return false }
        status.withLock {
            $0.childSession = "unknown"
            $0.lastReachedAt = nil
            $0.lastError = nil
        }
        switch change {
        case .serves(let account):
            log.info("daemon", "now serves \(account.username ?? "an unknown user") at \(account.origin)")
        case .servesNone:
            log.info("daemon", "serves no account (logged out); waiting for `share login` or `share accounts use`")
            status.withLock { $0.childSession = "not logged in" }
        }
        sessionWake.wake()
        pushWake.wake()
        takeoverWake.wake()
        drainWake.wake()
        return true
    }

    /// Notes that the served server answered just now (`share status` shows when).
    func reached() {
        status.withLock { $0.lastReachedAt = Date() }
    }
}
