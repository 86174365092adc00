import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitInboxInterface
import ShareKitOutboxInterface
import ShareKitSessionsInterface
import ShareKitTargetStoreInterface

/// `share __complete KIND`: what the shell completions offer for the values
/// only `share` knows (`--to`, the ID of `share inbox show|retry|drop`),
/// asked by the scripts of `share completions` each time a person presses
/// Tab (``ShareKitAppSupport/CompletionHint/candidates(_:)``).
///
/// A hidden command: not in `--help`, the manual page, the CLI reference or
/// the completions themselves. It reads only local files (the keychain's
/// account, the shared state, the share inbox, the daemon's outbox), never
/// the network, and prints one candidate a line, a tab, then a description;
/// nothing at all, with exit 0, when there is nothing to offer (no one
/// logged in, an empty inbox).
enum CompleteCommand {
    /// What can be completed: the word after `__complete`.
    enum Kind: String, CaseIterable {
        /// The recent targets of the account logged in to, as references (`thread:t1`).
        case targets
        /// The ids of the shares that wait, are being sent or were refused.
        case inboxIDs = "inbox-ids"
    }

    /// One word a shell may insert, and what it names for a person.
    struct Candidate: Equatable {
        /// The word inserted into the command line.
        let word: String
        /// Shown next to it by zsh and fish (a target's display path).
        let description: String
    }

    /// Runs `share __complete` with the words after it.
    /// - Returns: success (also with nothing to offer); usage for a kind
    ///   that does not exist; failure when the local files cannot be read
    ///   (said on stderr, which the scripts discard).
    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) -> ExitCode {
        let command = "share \(ShellCompletions.candidatesCommand)"
        guard arguments.count == 1, let kind = Kind(rawValue: arguments[0]) else {
            let kinds = Kind.allCases.map(\.rawValue)
            io.err.write(
                "\(command): "
                    + t(
                        .completeUnknownKind,
                        [
                            "kind": TerminalText.neutralised(arguments.first ?? ""),
                            "kinds": kinds.joined(separator: ", "),
                        ]) + "\n")
            return .usage
        }
        let candidates: [Candidate]
        do {
            switch kind {
            case .targets:
                candidates = try recentTargets(ClientAssembly(environment: environment))
            case .inboxIDs:
                candidates = try inboxIDs(ShareLocator(environment: environment))
            }
        } catch {
            io.err.write("\(command): \(TerminalText.neutralised(LocalizedText(describing: error).localized))\n")
            return .failure
        }
        var text = ""
        for candidate in candidates where isTypable(candidate.word) {
            text += candidate.word + "\t" + TerminalText.neutralised(candidate.description) + "\n"
        }
        io.out.write(text)
        return .success
    }

    /// The recent targets of the current account (the one `share login` or
    /// `share accounts use` chose), newest first, as the references `--to`
    /// takes; none when no account is current. Another server's targets are
    /// never offered. The one place completion reads recent targets from.
    /// - Throws: when the keychain or the shared state cannot be read.
    static func recentTargets(_ assembly: ClientAssembly) throws -> [Candidate] {
        guard let account = try assembly.accounts.current() else { return [] }
        return try assembly.recentTargets(of: account).list().targets.map {
            Candidate(word: PickerLaunch.reference(of: $0), description: $0.displayPath)
        }
    }

    /// The ids `share inbox list` shows, in its order: the share inbox's
    /// entries, the daemon's outbox (waiting, being sent, refused), the
    /// quarantine; each with where its share goes (a quarantined entry: why
    /// it is there). The one place that decides which id of a share is
    /// completed.
    /// - Throws: when the inbox or the outbox cannot be read.
    static func inboxIDs(_ shares: ShareLocator) throws -> [Candidate] {
        let scan = try shares.inbox.scan()
        let outboxItems = try shares.outboxItems()
        let inOutbox = Set(outboxItems.map(\.clientMsgID.description))
        // The short ids `share inbox list` prints: what a person types.
        let short = shares.shortIDs()
        let word = { (id: String) in short[id] ?? id }
        return scan.entries.filter { !inOutbox.contains($0.id) }.map {
            Candidate(word: word($0.id), description: $0.manifest.target.displayPath)
        }
            + outboxItems.map {
                Candidate(word: word($0.clientMsgID.description), description: $0.target.displayPath)
            }
            + scan.quarantined.map { Candidate(word: word($0.id), description: $0.reason) }
    }

    /// Whether `word` can go into a command line as it is: ASCII letters,
    /// digits and `. _ : @ + , % / -`, not starting with a dash. Anything
    /// else (an id from a hostile server such as `t1;rm -rf ~` or
    /// `$(reboot)`, a blank, a control character) is never offered: bash
    /// inserts a candidate unquoted, and a person may press Enter without
    /// reading it.
    static func isTypable(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first, first != "-" else { return false }
        return word.unicodeScalars.allSatisfy {
            $0.isASCII
                && (CharacterSet.alphanumerics.contains($0) || "._:@+,%/-".unicodeScalars.contains($0))
        }
    }
}
