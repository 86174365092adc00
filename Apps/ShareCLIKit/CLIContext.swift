import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitDeliveryInterface
import ShareKitInboxInterface
import ShareKitIntakeInterface
import ShareKitMessagesInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface
import ShareKitTargetStoreInterface

/// Says once, on a terminal, what `share send` waits for when the server
/// has not answered within a second (`waiting for chat.example.com ...`), so
/// a frozen server is never a silent terminal. Nothing on a pipe.
final class WaitingNotice: Sendable {
    private let task: Task<Void, Never>?

    /// Starts the clock.
    /// - Parameters:
    ///   - io: where to say it (standard error, when it is a terminal).
    ///   - origin: the server's origin; its host and port are named.
    init(io: ProgramIO, origin: String) {
        guard io.err.isTerminal else {
            task = nil
            return
        }
        let host = origin.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: "http://", with: "")
        let err = io.err
        task = Task {
            // A display timer, not synchronisation: the notice is for a person.
            guard (try? await Task.sleep(for: .milliseconds(800))) != nil else { return }
            err.write("share send: " + t(.waitingFor, ["host": TerminalText.neutralised(host)]) + "\n")
        }
    }

    /// The wait is over: nothing more is said.
    func stop() { task?.cancel() }
}

/// What the CLI's commands work with, built once per run from the
/// environment: the client assembly, the server and the account there, the
/// share inbox and intake. Every service is an interface that
/// `ClientAssembly` hands out. The recent targets and the cached limits are
/// those of the account at the chosen server, never another's.
struct CLIContext: Sendable {
    let assembly: ClientAssembly
    let origin: String
    /// The account at ``origin`` (its username nil when none is recorded there).
    let account: SignedInAccount
    let connection: ServerConnection
    let inbox: any ShareInboxStoring
    let intake: any ShareIntaking
    let recents: any RecentTargetsStoring

    /// The server is the first of `--server`, the origin of the share a
    /// command works on, `SHAREKIT_SERVER` and the account `share login`
    /// chose. `--server` and `SHAREKIT_SERVER` must be `http(s)://host[:port]`.
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - server: `--server`, if given.
    ///   - shareOrigin: the server a kept share names (`share inbox retry`),
    ///     taken as it is: a share kept by an earlier version may name
    ///     anything, and it then has no account.
    ///   - loadsLibraryEarly: start loading libcurl in the background now
    ///     (the default), or on the first request (a send of files: see
    ///     ``ClientAssembly/connection(to:loadsLibraryEarly:)``), or never
    ///     for a command that may not ask the server at all.
    ///   - requiresAccount: refuse a server nobody is logged in to on this
    ///     device (a share for it could never be sent, by the CLI or the daemon).
    ///   - leavingLargeRemovals: a large share the command completes leaves
    ///     the inbox without being deleted, for
    ///     ``removeLeftoversInBackground(environment:)`` (`share send`).
    /// - Throws: a usage `ProgramError` for a `--server` or `SHAREKIT_SERVER` that is
    ///   not an http(s) origin, ``ShareKitAppSupport/ProgramError/notLoggedIn(at:)``
    ///   when an account is required and there is none at the server, a
    ///   `ProgramError` when no server is known, or what the assembly throws.
    init(
        environment: [String: String], server: String?, shareOrigin: String? = nil, loadsLibraryEarly: Bool = true,
        requiresAccount: Bool = false, leavingLargeRemovals: Bool = false
    ) throws {
        assembly = try ClientAssembly(environment: environment)
        let current = try? assembly.accounts.current()
        let chosen: String
        if let server {
            guard let parsed = ServerOrigin.parse(server) else {
                throw ProgramError.usage(localized(.serverForm, ["server": TerminalText.neutralised(server)]))
            }
            chosen = parsed
        } else if let shareOrigin, !shareOrigin.isEmpty {
            chosen = shareOrigin.hasSuffix("/") ? String(shareOrigin.dropLast()) : shareOrigin
        } else if let variable = environment["SHAREKIT_SERVER"], !variable.isEmpty {
            guard let parsed = ServerOrigin.parse(variable) else {
                throw ProgramError.usage(localized(.serverVariableForm, ["server": TerminalText.neutralised(variable)]))
            }
            chosen = parsed
        } else if let stored = current?.origin, !stored.isEmpty {
            chosen = stored
        } else {
            // Accounts at other servers may be there, but none is chosen: say how to choose.
            let stored = (try? assembly.accounts.storedAccounts()) ?? []
            throw ProgramError(localized(stored.isEmpty ? .noServer : .noCurrentAccount))
        }
        origin = chosen
        if let current, ServerOrigin.same(current.origin, chosen) {
            account = current
        } else {
            account = (try? assembly.accounts.account(at: chosen)) ?? SignedInAccount(origin: chosen, username: nil)
        }
        if requiresAccount, !Self.isAccount(account, at: origin) { throw ProgramError.notLoggedIn(at: origin) }
        connection = try assembly.connection(to: origin, loadsLibraryEarly: loadsLibraryEarly)
        inbox = assembly.shareInbox(leavingLargeRemovals: leavingLargeRemovals)
        intake = try assembly.shareIntake()
        recents = assembly.recentTargets(of: account)
    }

    /// Deletes the large shares this command completed but left in the
    /// inbox's staging folder (``ClientAssembly/largeRemovalBytes``) through
    /// `share inbox clean`, started in a session of its own and not waited
    /// for: the command answers as soon as its share is sent, and deleting
    /// gigabytes (a second or more) happens after it. Where the cleaner
    /// cannot be started they are deleted here; and whatever is left, a
    /// later scan of the inbox deletes.
    /// - Parameter environment: the command's environment (it names the
    ///   shared container the cleaner must work on).
    func removeLeftoversInBackground(environment: [String: String]) {
        guard inbox.removalsLeft > 0 else { return }
        if BackgroundCleaner.start(environment: environment) { return }
        _ = try? inbox.removeLeftovers()
    }

    /// Whether `account` is an account of this device at `origin` (a
    /// username `share login` recorded there): shares for any other server
    /// can be sent by neither this device's CLI nor its daemon.
    /// Both sides are compared as ``ServerOrigin/parse(_:)`` writes them
    /// (`HTTP://Host:8080/` is `http://host:8080`).
    static func isAccount(_ account: SignedInAccount?, at origin: String) -> Bool {
        guard let stored = account?.origin, account?.username != nil else { return false }
        return (ServerOrigin.parse(stored) ?? stored) == (ServerOrigin.parse(origin) ?? origin)
    }

    /// Whether someone is logged in at `origin` on this device (see
    /// ``isAccount(_:at:)``); false when the keychain cannot be read.
    static func hasAccount(_ assembly: ClientAssembly, at origin: String) -> Bool {
        isAccount(try? assembly.accounts.account(at: ServerOrigin.parse(origin) ?? origin), at: origin)
    }

    /// The upload records of resumable uploads, shared with the daemon.
    var uploadRecordsDirectory: String { assembly.container.rootPath + "/uploads" }

    /// The server as the CLI sends to it: the child session only (the CLI
    /// never touches the parent family).
    func sender(limits: MessageLimits?) -> DeliveryServer {
        connection.sender(
            .child,
            limits: limits ?? MessageLimits(messageMaxAttachments: Int.max, fileMaxUploadBytes: Int64.max),
            recordsDirectory: uploadRecordsDirectory)
    }

    /// The server's limits as the account was told them: from the shared
    /// state (written by the daemon), else asked from the server with the
    /// child session and kept there; nil when neither works (the server then decides).
    func instanceLimits() async -> InstanceLimits? {
        let state = assembly.container.state
        let scope = account.scope
        if let known = state.instanceLimits(of: scope), known.acceptedContentTypes != nil {
            return known
        }
        guard let fetched = try? await connection.messages(.child).instanceLimits() else {
            return state.instanceLimits(of: scope)
        }
        try? state.storeInstanceLimits(fetched, of: scope)
        return fetched
    }

    /// The server's limits as known from earlier (the account's values in
    /// the shared state, written by `share login`, the daemon or an earlier
    /// send), without the network.
    func cachedInstanceLimits() -> InstanceLimits? {
        assembly.container.state.instanceLimits(of: account.scope)
    }

    /// `--to` as a reference (`thread:ID`, `channel:ID`, `new-post:ID`), or
    /// on a Matrix account a room id (`!id`, with `:server` in rooms before
    /// version 12), which names its room as `channel:ID` does and so works offline too.
    /// - Parameter wanted: what `--to` said.
    /// - Returns: the reference, or nil for a display path.
    /// - Throws: `ShareCoreError` when a known prefix has no usable id.
    private func reference(_ wanted: String) throws -> ShareTarget? {
        if let parsed = try ShareTarget.parseReference(wanted) { return parsed }
        guard case .matrix = connection.kind, wanted.hasPrefix("!"), wanted.count > 1,
            !wanted.contains(where: \.isWhitespace)
        else { return nil }
        return ShareTarget(kind: .channel, id: wanted, displayPath: wanted)
    }

    /// `--to` as far as it is known without the network: a reference as
    /// given (with the display path of an earlier share to it), a display
    /// path from the recent targets; nil when only the server can say.
    /// A malformed reference is a usage error.
    func offlineTarget(_ text: String, newPostTitle: String?) -> Result<ShareTarget?, ProgramError> {
        var wanted = text
        if newPostTitle != nil, text.hasPrefix("channel:") { wanted = "new-post:" + text.dropFirst("channel:".count) }
        let reference: ShareTarget?
        do {
            reference = try self.reference(wanted)
        } catch {
            return .failure(.usage(LocalizedText(describing: error)))
        }
        if reference == nil, let problem = Self.malformedReference(wanted) { return .failure(.usage(problem)) }
        let known = (try? recents.list().targets) ?? []
        if let reference {
            return .success(known.first { $0.kind == reference.kind && $0.id == reference.id } ?? reference)
        }
        return .success(known.first { $0.displayPath == text })
    }

    /// What each command-line item names.
    /// - Throws: `IntakeError` for a `file://` URL that is not local.
    func sources(for request: SendRequest) throws(IntakeError) -> [ShareItemSource] {
        var sources: [ShareItemSource] = []
        for item in request.items { sources.append(try intake.source(forArgument: item)) }
        if request.readStandardInput { sources.append(.standardInput) }
        sources += request.texts.map { .text($0) }
        return sources
    }

    /// Resolves `--to`, checking it with the server when it can be reached.
    /// A reference (`thread:ID`) that cannot be checked now is still
    /// accepted (the share goes to the inbox and the server decides later),
    /// with the display path of an earlier share to it if there was one; a
    /// display path must be known, from the server or the recent targets.
    func resolveTarget(_ text: String, newPostTitle: String?) async -> Result<ShareTarget, ProgramError> {
        var wanted = text
        if newPostTitle != nil, text.hasPrefix("channel:") { wanted = "new-post:" + text.dropFirst("channel:".count) }
        let reference: ShareTarget?
        do {
            reference = try self.reference(wanted)
        } catch {
            return .failure(.usage(LocalizedText(describing: error)))
        }
        if reference == nil, let problem = Self.malformedReference(wanted) { return .failure(.usage(problem)) }
        let directory = connection.targets(.child)
        do {
            let target = try await directory.resolve(wanted)
            if newPostTitle != nil, target.kind != .newPost {
                return .failure(.usage(localized(.newPostNeedsForum, ["path": target.displayPath])))
            }
            return .success(target)
        } catch {
            switch error {
            case .unavailable(let reason, _):
                let known = (try? recents.list().targets) ?? []
                if let reference {
                    let match = known.first { $0.kind == reference.kind && $0.id == reference.id }
                    return .success(match ?? reference)
                }
                if let match = known.first(where: { $0.displayPath == text }) { return .success(match) }
                return .failure(ProgramError(localized(.cannotLookUp, ["text": text, "reason": reason])))
            case .notWritable:
                return .failure(.refusedTarget(code: "write_forbidden", error.localizedText))
            case .notFound, .ambiguous:
                return .failure(.refusedTarget(code: "unknown_target", error.localizedText))
            case .invalidReference:
                return .failure(.usage(error.localizedText))
            }
        }
    }

    /// Why `text` looks like a reference with a kind that does not exist
    /// (`thred:t3`): one word of letters and dashes, a colon, an id, and no
    /// `>` or space that a display path would have. Nil for anything else.
    static func malformedReference(_ text: String) -> LocalizedText? {
        guard let colon = text.firstIndex(of: ":"), !text.contains(">"), !text.contains(" ") else { return nil }
        let kind = String(text[..<colon])
        guard !kind.isEmpty, kind.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        let id = text[text.index(after: colon)...]
        let kinds = ["thread", "channel", "new-post"]
        let reference = Suggestion.nearest(to: kind, in: kinds).map { "\($0):\(id)" }
        return LocalizedText { language in
            let hint = reference.map { CLIText.table.text(.didYouMeanTarget, ["reference": $0], in: language) } ?? ""
            return CLIText.table.text(.notAKind, ["text": text, "kind": kind, "hint": hint], in: language)
        }
    }

    /// The id a person types for a share (``ShareShortID``): unique among
    /// the shares `share inbox list` shows now; the full id when the inbox
    /// or the daemon's outbox cannot be read.
    /// - Parameter id: the share's full id.
    func shortID(of id: String) -> String {
        guard let locator = try? ShareLocator(assembly: assembly) else { return id }
        return locator.shortIDs(including: [id])[id] ?? id
    }

    /// Tells a running daemon that the inbox has something new (best effort:
    /// without a daemon the entry waits for its next start).
    /// - Returns: whether a daemon answered.
    @discardableResult
    func wakeDaemon() -> Bool {
        assembly.daemonControl().wake()
    }
}
