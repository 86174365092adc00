import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitPushPreviewInterface
import ShareKitSessionsInterface
import ShareKitSharedStateInterface

/// `share notify`: the notifier as a command (the Linux counterpart of the
/// Notification Service Extension). It renders one push payload with the
/// push registration's preview token only (it never reads a session token)
/// and shows it as a desktop notification, or prints it.
enum NotifyCommand {
    static var help: String { t(.notifyHelp) }

    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) async -> ExitCode {
        let receivedAt = ContinuousClock.now
        if arguments.contains("--help") || arguments.contains("-h") {
            io.out.write(help)
            return .success
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, command: ShareCommands.notify)
            guard parsed.positionals.isEmpty else {
                throw ProgramError.usage(localized(.unexpectedArgument, ["argument": parsed.positionals[0]]))
            }
            _ = try parsed.required(Options.payload)
        } catch {
            io.err.write(
                "share notify: "
                    + t(.runHelp, ["message": LocalizedText(describing: error).localized, "command": "share notify"])
                    + "\n")
            return .usage
        }
        let source = parsed.value(Options.payload) ?? "-"
        let input = source == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: source)
        guard let input, let bytes = readBounded(input, limit: PushPayload.maximumSize) else {
            io.err.write("share notify: " + t(.cannotReadPayload, ["file": source]) + "\n")
            return .failure
        }
        let payload: PushPayload
        do {
            payload = try ClientAssembly.pushPayload(from: bytes)
        } catch {
            io.err.write("share notify: \(LocalizedText(describing: error).localized)\n")
            return .failure
        }
        let assembly: ClientAssembly
        let notifier: any PushNotifying
        do {
            assembly = try ClientAssembly(environment: environment)
            notifier = try assembly.notifier()
        } catch {
            io.err.write("share notify: \(LocalizedText(describing: error).localized)\n")
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
                io.err.write("share notify: \(LocalizedText(describing: error).localized)\n")
                return .failure
            }
        }
        return .success
    }

    /// Reads at most `limit + 1` bytes: enough for the parser to refuse a
    /// payload over the limit, whatever size the pipe or file has (a
    /// payload read to its end cost its size in memory, twice).
    /// - Returns: the bytes, or nil when reading failed.
    static func readBounded(_ handle: FileHandle, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(65_536, limit + 1 - bytes.count))
            } catch {
                return nil
            }
            // nil or empty: the end of the input.
            guard let chunk, !chunk.isEmpty else { break }
            bytes += chunk
        }
        return bytes
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
        let instance = PushRegistration.instance(ofOrigin: origin)
        guard let registration = (try? store.registration(instance: instance)) ?? nil else {
            try? store.delete(instance: instance)
            return nil
        }
        var line = t(.pushRemoved)
        if let connection = try? assembly.connection(to: origin) {
            let registrar = connection.pushRegistrar()
            do {
                try await registrar.unregister(registrationID: registration.registrationID)
            } catch {
                line = t(.pushRemovedHere, ["error": "\(error)"])
            }
        }
        do {
            try store.delete(instance: instance)
        } catch {
            return t(.pushCannotDelete, ["error": "\(error)"])
        }
        return line
    }
}
