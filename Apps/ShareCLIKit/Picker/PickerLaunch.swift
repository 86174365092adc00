import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore
import ShareKitIntakeInterface
import ShareKitSessionsInterface
import ShareKitTargetStoreInterface

/// `share send` without `--to`: the picker chooses the target (and may
/// change the comment) before anything is kept or sent, so cancelling it
/// leaves nothing behind.
enum PickerLaunch {
    /// Whether the picker can open: standard input and output are a terminal.
    static var hasTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Why `share send` stops when it has no target and no terminal.
    static var noTerminalMessage: LocalizedText { localized(.noTerminal) }

    /// Stops a command line without `--to` that cannot open the picker.
    /// - Returns: the usage exit, or nil when the picker can open (or is not needed).
    static func requireTerminal(_ request: SendRequest, report: SendReport) -> ExitCode? {
        guard request.target.isEmpty, !hasTerminal else { return nil }
        return report.usage(noTerminalMessage)
    }

    /// Lets the person choose the target when `--to` was not given.
    /// - Returns: nil to go on with `request` completed; an exit code when
    ///   the picker was cancelled or could not run.
    static func complete(_ request: inout SendRequest, context: CLIContext, report: SendReport) async -> ExitCode? {
        guard request.target.isEmpty else { return nil }
        let picker = TargetPicker(
            directory: context.targetDirectory, recents: (try? context.recents.list().targets) ?? [],
            preview: ItemPreview.line(
                for: request, intake: context.intake, sniffer: context.assembly.contentSniffer()))
        let outcome: PickerState.Outcome
        do {
            outcome = try await picker.run(comment: request.comment)
        } catch {
            return report.failure(LocalizedText(describing: error))
        }
        switch outcome {
        case .cancel:
            if report.json { report.io.writeJSON(["status": "cancelled", "kept": false]) }
            report.io.err.write("share send: " + t(.pickerCancelled) + "\n")
            return .cancelled
        case .send(let target, let comment):
            request.target = reference(of: target)
            request.comment = comment
            if target.kind == .newPost, request.newPostTitle == nil {
                request.newPostTitle = newPostTitle(for: request)
            }
            return nil
        }
    }

    /// The command-line form of a target (`thread:ID`, `channel:ID`, `new-post:ID`).
    static func reference(of target: ShareTarget) -> String {
        switch target.kind {
        case .thread: return "thread:" + target.id
        case .channel: return "channel:" + target.id
        case .newPost: return "new-post:" + target.id
        }
    }

    /// A new post needs a title: the comment's first line, else the first item's name.
    static func newPostTitle(for request: SendRequest) -> String {
        let line = request.comment.split(separator: "\n").first.map(String.init) ?? ""
        if !line.allSatisfy(\.isWhitespace) { return String(line.prefix(120)) }
        if let item = request.items.first { return URL(fileURLWithPath: item).lastPathComponent }
        return request.texts.first.map { String($0.prefix(120)) } ?? t(.newPostDefaultTitle)
    }
}

extension CLIContext {
    /// Search and resolution against the server with the CLI's child session.
    var targetDirectory: any TargetDirectory {
        connection.targets(.child)
    }
}

/// The picker's preview line: what the first item is (name, type, size)
/// and how many more there are. Cheap: one stat and libmagic on one file.
enum ItemPreview {
    static func line(for request: SendRequest, intake: any ShareIntaking, sniffer: any ContentSniffing) -> String {
        let count = request.items.count + request.texts.count + (request.readStandardInput ? 1 : 0)
        let more = count > 1 ? t(.previewMore, ["count": count - 1]) : ""
        if let first = request.items.first {
            return describe(argument: first, intake: intake, sniffer: sniffer) + more
        }
        if let text = request.texts.first { return t(.previewText, ["text": String(text.prefix(60))]) + more }
        if request.readStandardInput { return t(.previewStdin) + more }
        return t(.previewCommentOnly)
    }

    private static func describe(argument: String, intake: any ShareIntaking, sniffer: any ContentSniffing)
        -> String
    {
        guard let source = try? intake.source(forArgument: argument) else { return argument }
        switch source {
        case .file(let path):
            let name = URL(fileURLWithPath: path).lastPathComponent
            var info = stat()
            guard stat(path, &info) == 0 else { return t(.previewUnreadable, ["name": name]) }
            let type = (try? sniffer.contentType(ofFileAt: path)) ?? t(.previewUnknownType)
            return "\(name) - \(type) - \(ProgressBar.formatBytes(Int64(info.st_size)))"
        case .link(let url): return t(.previewLink, ["url": url])
        case .text(let text): return t(.previewText, ["text": String(text.prefix(60))])
        case .standardInput: return t(.previewStdin)
        }
    }
}
