import AppSupport
import ClientAssembly
import Foundation
import PushPreviewInterface
import SessionsInterface
import ShareCore
import SharedStateInterface

/// `share notify`: the notifier as a command (the Linux counterpart of the
/// Notification Service Extension). It renders one push payload with the
/// push registration's preview token only (it never reads a session token)
/// and shows it as a desktop notification, or prints it.
enum NotifyCommand {
    static let help = """
        Usage: share notify --payload FILE|- [--print] [--json] [--no-wait]

        Renders one push payload (docs/protocol.md "Push": aps and b with v, nid, k, i, t, m)
        the way the notification extension does: within client.push.fetch_timeout it
        fetches the preview with the push registration's preview token and shows names
        and excerpt as notify.preview_mode allows. With mode none it fetches nothing and
        shows the placeholder; when the message is gone it shows "Message not available";
        without an answer in time the placeholder stays. A payload whose b.v is not 1 is
        shown as sent.

        By default the result is shown as a desktop notification with notify-send
        (grouped per thread through a hint, the badge as a hint); SHAREKIT_NOTIFY_COMMAND
        names another program that takes the same arguments. aps.interruption-level sets
        the urgency (passive: low, active: normal, time-sensitive and critical:
        critical); aps.sound asks for the desktop's message sound, no sound (or passive)
        for none. When the preview carries the message's web link (on the server the
        preview came from, http or https), the notification offers it as its default
        action: share notify waits until the notification is clicked, and then opens the
        link with xdg-open (SHAREKIT_OPEN_COMMAND names another program), or closed.

        Options:
          --payload FILE  the payload's JSON, or - for standard input.
          --print         print the title and the body (two lines) instead.
          --json          print one JSON object instead: {"title", "body", "thread_id",
                          "placeholder": true|false, "outcome":
                          "preview"|"not_available"|"placeholder"|"unchanged", "kind",
                          "nid", "badge", "urgency": "low"|"normal"|"critical", "sound",
                          "link", "failure"}.
          --no-wait       show the notification without its default action and return
                          at once.

        Texts follow LC_ALL, LC_MESSAGES or LANG (English and German).

        Exit codes:
          0   rendered (and shown, unless --print or --json)
          1   the payload cannot be read or lacks a required member, the notification
              could not be shown, or its link could not be opened
          2   invalid command line

        """

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let receivedAt = ContinuousClock.now
        if arguments.contains("--help") || arguments.contains("-h") {
            io.out.write(help)
            return .success
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, command: ShareCommands.notify)
            guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument \(parsed.positionals[0])") }
            _ = try parsed.required(Options.payload)
        } catch {
            io.err.write("share notify: \(error); run 'share notify --help'\n")
            return .usage
        }
        let source = parsed.value(Options.payload) ?? "-"
        let bytes: [UInt8]
        if source == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            guard let data = FileManager.default.contents(atPath: source) else {
                io.err.write("share notify: cannot read the payload file \(source)\n")
                return .failure
            }
            bytes = Array(data)
        }
        let payload: PushPayload
        do {
            payload = try ClientAssembly.pushPayload(from: bytes)
        } catch {
            io.err.write("share notify: \(error)\n")
            return .failure
        }
        let assembly: ClientAssembly
        let notifier: any PushNotifying
        do {
            assembly = try ClientAssembly(environment: environment)
            notifier = try assembly.notifier()
        } catch {
            io.err.write("share notify: \(error)\n")
            return .failure
        }
        let shown = await notifier.render(payload, receivedAt: receivedAt)
        if parsed.has(Options.json) {
            io.writeJSON(json(shown))
        } else if parsed.has(Options.print) {
            io.out.write(TerminalText.neutralised(shown.title) + "\n" + TerminalText.neutralised(shown.body) + "\n")
        } else {
            do {
                let presenter = assembly.notificationPresenter()
                if parsed.has(Options.noWait) {
                    try presenter.deliver(shown)
                } else {
                    _ = try await presenter.present(shown)
                }
            } catch {
                io.err.write("share notify: \(error)\n")
                return .failure
            }
        }
        return .success
    }

    /// The `--json` object.
    static func json(_ shown: RenderedNotification) -> JSONValue {
        var object: [String: JSONValue] = [
            "title": JSONValue(shown.title), "body": JSONValue(shown.body), "thread_id": JSONValue(shown.threadID),
            "placeholder": JSONValue(shown.isPlaceholder), "outcome": JSONValue(shown.outcome.rawValue),
            "kind": JSONValue(shown.kind), "nid": JSONValue(shown.nid), "badge": JSONValue(shown.badge),
            "urgency": JSONValue(shown.urgency.rawValue), "sound": JSONValue(shown.sound),
            "link": JSONValue(shown.link),
        ]
        if let failure = shown.failure { object["failure"] = JSONValue(failure.description) }
        return .object(object)
    }

    /// Logout's part of push: removes this device's push registration at
    /// the server (best effort, with the parent session, before it ends)
    /// and always from the keychain. The server also disables the
    /// registrations of a session that logs out.
    /// - Returns: a line for the person, or nil when nothing was registered.
    static func unregisterPush(at origin: String, assembly: ClientAssembly) async -> String? {
        let store = assembly.pushRegistrations()
        let instance = ClientAssembly.pushInstance(ofOrigin: origin)
        guard let registration = (try? store.registration(instance: instance)) ?? nil else {
            try? store.delete(instance: instance)
            return nil
        }
        var line = "removed the push registration"
        if let connection = try? assembly.connection(to: origin) {
            let registrar = connection.pushRegistrar()
            do {
                try await registrar.unregister(registrationID: registration.registrationID)
            } catch {
                line += " here (the server was not told: \(error))"
            }
        }
        do {
            try store.delete(instance: instance)
        } catch {
            return "cannot delete the push registration from the keychain: \(error)"
        }
        return line
    }
}
