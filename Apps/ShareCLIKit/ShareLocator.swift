import AppSupport
import ClientAssembly
import Foundation
import OutboxInterface
import ShareCore
import ShareInboxInterface

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

/// Why an id names no single share.
enum LocateProblem: Error, Sendable {
    /// Shorter than ``ShareLocator/minimumPrefix``.
    case tooShort(String)
    /// No share's id begins with it.
    case notFound(String)
    /// Several shares' ids begin with it.
    case ambiguous(String, [String])
    /// The inbox or the outbox cannot be read.
    case unreadable(LocalizedText)

    /// Says the problem on stderr (and as JSON) and gives the exit code.
    func report(io: ProgramIO, json: Bool) -> ExitCode {
        let message: LocalizedText
        let code: ExitCode
        switch self {
        case .tooShort(let id):
            message = localized(.idTooShort, ["minimum": ShareLocator.minimumPrefix, "id": id])
            code = .usage
        case .notFound(let id):
            message = localized(.noEntryListHint, ["id": id])
            code = .failure
        case .ambiguous(let id, let matches):
            message = localized(.idAmbiguous, ["id": id, "matches": matches.joined(separator: ", ")])
            code = .usage
        case .unreadable(let why):
            message = why
            code = .failure
        }
        if json { io.writeJSON(["status": "error", "error": JSONValue(message.english)]) }
        io.err.write("share inbox: \(TerminalText.neutralised(message.localized))\n")
        return code
    }
}

/// Finds shares by id, or by a unique prefix of at least four characters as
/// git does, across the share inbox and share-daemon's outbox (read from
/// its database, so it works whether the daemon runs or not).
struct ShareLocator: Sendable {
    /// The shortest prefix an id may be abbreviated to.
    static let minimumPrefix = 4

    let assembly: ClientAssembly
    let inbox: any ShareInboxStoring
    /// The daemon's outbox; nil when no daemon ever made one here.
    let outbox: (any OutboxQueueing)?

    /// - Parameter environment: the process environment.
    /// - Throws: what the assembly throws, or when the outbox cannot be opened.
    init(environment: [String: String]) throws {
        assembly = try ClientAssembly(environment: environment)
        inbox = assembly.shareInbox()
        outbox = try assembly.existingDaemonOutbox()
    }

    /// The outbox's shares that are not on the server yet: waiting, being
    /// sent or refused, oldest first.
    /// - Throws: `OutboxError` when the outbox cannot be read.
    func outboxItems() throws -> [OutboxItem] {
        try outbox?.list(states: [.pending, .sending, .failed]) ?? []
    }

    /// The share an id or a prefix of one names. A share that is in both
    /// places (the daemon is taking it over right now) is the outbox's.
    func find(_ text: String) -> Result<LocatedShare, LocateProblem> {
        let scan: InboxScan
        let items: [OutboxItem]
        do {
            scan = try inbox.scan()
            items = try outbox?.list(states: Set(OutboxState.allCases)) ?? []
        } catch {
            return .failure(.unreadable(LocalizedText(describing: error)))
        }
        var shares: [String: LocatedShare] = [:]
        for entry in scan.entries { shares[entry.id] = .inbox(entry.id) }
        for entry in scan.quarantined { shares[entry.id] = .quarantined(entry.id) }
        for item in items { shares[item.clientMsgID.description] = .outbox(item) }
        if let exact = shares[text] { return .success(exact) }
        guard text.count >= Self.minimumPrefix else { return .failure(.tooShort(text)) }
        let matches = shares.keys.filter { $0.hasPrefix(text) }.sorted()
        switch matches.count {
        case 0: return .failure(.notFound(text))
        case 1: return .success(shares[matches[0]]!)
        default: return .failure(.ambiguous(text, matches))
        }
    }
}
