import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitDaemonControlInterface
import ShareKitInboxInterface
import ShareKitOutboxInterface

/// Where a share is now: the id `share send` printed names it for its whole
/// life, in the share inbox and, after the daemon took it over, in the
/// daemon's outbox.
enum LocatedShare: Sendable {
    /// An entry of the share inbox, by its id.
    case inbox(String)
    /// A quarantined entry of the share inbox, by its id.
    case quarantined(String)
    /// A share of share-daemon's outbox.
    case outbox(OutboxItem)

    /// The share's full id.
    var id: String {
        switch self {
        case .inbox(let id), .quarantined(let id): return id
        case .outbox(let item): return item.clientMsgID.description
        }
    }
}

/// Why an id names no single share: the failures of ``ShareLocator/find(_:)``.
extension ProgramError {
    /// Shorter than ``ShareShortID/minimumLength`` and no share's whole id (exit 2).
    static func idTooShort(_ id: String) -> ProgramError {
        .usage(localized(.idTooShort, ["minimum": ShareShortID.minimumLength, "id": id]))
    }

    /// No share's id begins or ends with it (exit 1).
    static func noShare(_ id: String) -> ProgramError {
        ProgramError(localized(.noEntryListHint, ["id": id]))
    }

    /// Several shares' ids begin or end with it (exit 2): each on a line,
    /// by the id a person can type, with where it goes.
    static func ambiguousID(_ id: String, _ matches: [(shortID: String, target: String)]) -> ProgramError {
        let safe = TerminalText.neutralised
        let lines = matches.map { "\n  \($0.shortID)  \(safe($0.target))" }.joined()
        return .usage(localized(.idAmbiguous, ["id": safe(id), "matches": lines]))
    }

    /// Says a failure of `share inbox` on stderr (and as JSON) and gives the exit code.
    func inboxReport(io: ProgramIO, json: Bool) -> ExitCode {
        if json { io.writeJSON(["status": "error", "error": JSONValue(localizedText.english)]) }
        // The message's own line breaks are kept; every part from elsewhere was neutralised.
        let lines = localizedText.localized.split(separator: "\n", omittingEmptySubsequences: false)
        io.err.write(
            "share inbox: " + lines.map { TerminalText.neutralised(String($0)) }.joined(separator: "\n") + "\n")
        return exitCode
    }
}

/// Finds shares by id across the share inbox and share-daemon's outbox
/// (read from its database, so it works whether the daemon runs or not):
/// by the whole id, its short id (``ShareShortID``), or any unique prefix
/// or suffix of at least six characters. Shares a person is shown (those
/// that wait, are being sent or were refused) come first: a share the
/// daemon sent long ago never makes one of them ambiguous.
struct ShareLocator: Sendable {
    let assembly: ClientAssembly
    let inbox: any ShareInboxStoring
    /// The daemon's outbox; nil when no daemon ever made one here.
    let outbox: (any OutboxManaging)?
    /// The daemon's control socket: what it refused when its outbox is not
    /// this environment's, whether it runs, its wake-up after a retry.
    let daemon: any DaemonControlling

    /// - Parameter environment: the process environment.
    /// - Throws: what the assembly throws, or when the outbox cannot be opened.
    init(environment: [String: String]) throws {
        try self.init(assembly: ClientAssembly(environment: environment))
    }

    /// - Parameters:
    ///   - assembly: the client composition root (its container and daemon state).
    ///   - daemon: the daemon's control socket; the assembly's unless a test fakes it.
    /// - Throws: when the outbox cannot be opened.
    init(assembly: ClientAssembly, daemon: (any DaemonControlling)? = nil) throws {
        self.assembly = assembly
        inbox = assembly.shareInbox()
        outbox = try assembly.existingDaemonOutbox()
        self.daemon = daemon ?? assembly.daemonControl()
    }

    /// The outbox's shares that are not on the server yet: waiting, being
    /// sent or refused, oldest first.
    /// - Throws: `OutboxError` when the outbox cannot be read.
    func outboxItems() throws -> [OutboxItem] {
        try outbox?.list(states: [.pending, .sending, .failed]) ?? []
    }

    /// Every share known here, in two tiers: those a person is shown
    /// (inbox entries, quarantined entries, the outbox's waiting, sending
    /// and refused shares) and those the daemon sent; and where each goes.
    func known() -> Result<KnownShares, ProgramError> {
        let scan: InboxScan
        let items: [OutboxItem]
        do {
            scan = try inbox.scan()
            items = try outbox?.list(states: Set(OutboxState.allCases)) ?? []
        } catch {
            return .failure(ProgramError(LocalizedText(describing: error)))
        }
        var shown: [String: LocatedShare] = [:]
        var sent: [String: LocatedShare] = [:]
        var targets: [String: String] = [:]
        for entry in scan.entries {
            shown[entry.id] = .inbox(entry.id)
            targets[entry.id] = entry.manifest.target.displayPath
        }
        for entry in scan.quarantined { shown[entry.id] = .quarantined(entry.id) }
        for item in items {
            let id = item.clientMsgID.description
            targets[id] = item.target.displayPath
            if item.state == .sent {
                if shown[id] == nil { sent[id] = .outbox(item) }
            } else {
                shown[id] = .outbox(item)
            }
        }
        return .success(KnownShares(shown: shown, sent: sent, targets: targets))
    }

    /// The short id of every share known here: unique among the shares a
    /// person is shown; a sent share's is unique among all. What `share
    /// inbox list` prints and `share inbox show|retry|drop` accept.
    /// - Parameter extra: ids to include that may not be stored here (a
    ///   running daemon's report of refused shares).
    func shortIDs(including extra: [String] = []) -> [String: String] {
        guard case .success(let tiers) = known() else { return ShareShortID.shortIDs(for: extra) }
        var result = ShareShortID.shortIDs(for: Array(tiers.sent.keys) + Array(tiers.shown.keys) + extra)
        result.merge(ShareShortID.shortIDs(for: Array(tiers.shown.keys) + extra)) { $1 }
        return result
    }

    /// The share an id, a short id, or a unique prefix or suffix names.
    func find(_ text: String) -> Result<LocatedShare, ProgramError> {
        let tiers: KnownShares
        switch known() {
        case .success(let value): tiers = value
        case .failure(let problem): return .failure(problem)
        }
        if let exact = tiers.shown[text] ?? tiers.sent[text] { return .success(exact) }
        guard text.count >= ShareShortID.minimumLength else { return .failure(.idTooShort(text)) }
        for tier in [tiers.shown, tiers.sent] {
            let matches = tier.keys.filter { ShareShortID.matches(text, id: $0) }.sorted()
            switch matches.count {
            case 0: continue
            case 1: return .success(tier[matches[0]]!)
            default:
                let short = ShareShortID.shortIDs(for: tier.keys)
                return .failure(.ambiguousID(text, matches.map { (short[$0] ?? $0, tiers.targets[$0] ?? "") }))
            }
        }
        return .failure(.noShare(text))
    }
}

/// The shares ``ShareLocator/known()`` found, by full id.
struct KnownShares: Sendable {
    /// The shares a person is shown: inbox entries, quarantined entries, the outbox's unsent ones.
    var shown: [String: LocatedShare]
    /// The shares the daemon sent (kept in its outbox for the record).
    var sent: [String: LocatedShare]
    /// Where each share goes (its display path), when known.
    var targets: [String: String]
}
