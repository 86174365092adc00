import CShareKitGTK
import Foundation
public import ShareKitAppSupport
import ShareKitCLIKit
import ShareKitCore

/// The `share-sheet` program: the share sheet on the desktop (GTK 4).
/// `share-sheet [FILE|URL ...]`, `--text TEXT`, `--clipboard`,
/// `--selection`; it sends as `share send` does, and exits with its codes
/// (0 sent, 3 kept for share-daemon, 4 refused, 130 cancelled).
public enum ShareSheetProgram {
    /// What the command line asks to share.
    struct Request: Equatable {
        var items: [String] = []
        var texts: [String] = []
        /// Read the text from the clipboard (`--clipboard`) or the primary selection (`--selection`).
        var clipboard: Clipboard?
        var help = false
        var version = false

        enum Clipboard: Equatable {
            case clipboard
            case selection
        }

        /// Parses the arguments (without the program's name).
        /// - Returns: the request, or the option that is not known.
        static func parse(_ arguments: [String]) -> Result<Request, SheetProblem> {
            var request = Request()
            var rest = arguments[...]
            var onlyItems = false
            while let argument = rest.popFirst() {
                if onlyItems || !argument.hasPrefix("-") || argument == "-" {
                    request.items.append(argument)
                    continue
                }
                switch argument {
                case "--": onlyItems = true
                case "--help", "-h": request.help = true
                case "--version": request.version = true
                case "--clipboard": request.clipboard = .clipboard
                case "--selection": request.clipboard = .selection
                case "--text":
                    guard let text = rest.popFirst() else { return .failure(unknown(argument)) }
                    request.texts.append(text)
                default:
                    return .failure(unknown(argument))
                }
            }
            return .success(request)
        }

        static func unknown(_ option: String) -> SheetProblem {
            SheetProblem(SheetSession.text(.sheetUnknownOption, ["option": TerminalText.neutralised(option)]))
        }
    }

    /// Runs the sheet until it closes.
    /// - Returns: the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let err = FileDescriptorSink.standardError
        let request: Request
        switch Request.parse(arguments) {
        case .success(let parsed): request = parsed
        case .failure(let problem):
            err.write(problem.message + "\n")
            return ExitCode.usage.rawValue
        }
        if request.help {
            FileDescriptorSink.standardOutput.write(SheetSession.text(.sheetHelp))
            return ExitCode.success.rawValue
        }
        if request.version {
            FileDescriptorSink.standardOutput.write("share-sheet \(ShareKitVersion.current)\n")
            return ExitCode.success.rawValue
        }
        let display = environment["DISPLAY"] ?? ""
        let wayland = environment["WAYLAND_DISPLAY"] ?? ""
        guard !display.isEmpty || !wayland.isEmpty else {
            err.write("share-sheet: " + SheetSession.text(.sheetNoDisplay) + "\n")
            return ExitCode.failure.rawValue
        }
        let sheet = ShareSheet(
            session: SheetSession(environment: environment), items: request.items, texts: request.texts)
        currentSheet = sheet
        currentClipboard = request.clipboard
        // Not unique: two sheets may be open at once (two shares), each its own process.
        let application = gtk_application_new("org.sharekit.ShareSheet", G_APPLICATION_NON_UNIQUE)!
        connect(application, "activate", activate)
        // GTK reads no arguments of ours.
        _ = g_application_run(UnsafeMutablePointer<GApplication>(OpaquePointer(application)), 0, nil)
        // The application is not released: that would tear down the hidden
        // window (see ShareSheet.close); the process ends in `main` now.
        return sheet.exitCode.rawValue
    }

    /// Which clipboard the sheet reads its text from at start, if any.
    nonisolated(unsafe) static var currentClipboard: Request.Clipboard?

    static let activate: @convention(c) (UnsafeMutablePointer<GtkApplication>?, UnsafeMutableRawPointer?) -> Void = {
        application, _ in
        guard let application else { return }
        guard let which = currentClipboard, let display = gdk_display_get_default() else {
            currentSheet.build(application)
            return
        }
        // GTK has to hold the application while the clipboard answers: no window exists yet.
        g_application_hold(UnsafeMutablePointer<GApplication>(OpaquePointer(application)))
        let clipboard =
            which == .clipboard ? gdk_display_get_clipboard(display) : gdk_display_get_primary_clipboard(display)
        gdk_clipboard_read_text_async(clipboard, nil, clipboardRead, UnsafeMutableRawPointer(application))
    }

    static let clipboardRead:
        @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
            source, result, data in
            let application = UnsafeMutablePointer<GtkApplication>(OpaquePointer(data!))
            if let source, let text = gdk_clipboard_read_text_finish(OpaquePointer(source), result, nil) {
                let value = String(cString: text)
                g_free(text)
                if !value.allSatisfy(\.isWhitespace) { currentSheet.texts.append(value) }
            }
            if currentSheet.texts.isEmpty, currentSheet.items.isEmpty {
                currentSheet.standingProblems = [SheetSession.text(.sheetEmptyClipboard)]
            }
            currentSheet.build(application)
            g_application_release(UnsafeMutablePointer<GApplication>(OpaquePointer(application)))
        }
}
