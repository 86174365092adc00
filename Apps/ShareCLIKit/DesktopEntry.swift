import Foundation
import ShareKitAppSupport
import ShareKitClientAssembly
import ShareKitCore

/// The freedesktop desktop entry that offers ShareKit in file managers'
/// "Open with" and for links dropped on its launcher
/// (`contrib/desktop/sharekit.desktop`), generated from
/// `ClientAssembly.offeredContentTypes` (the intake's list) so that the list is written once.
/// `share desktop-entry` prints it; a test checks the shipped file is this text.
///
/// `Exec` takes `%U`, URLs: GNOME (GIO) passes a URL it has no local path
/// for as it is, and KDE (KIO) passes the schemes of `X-KDE-Protocols` as
/// they are and downloads any other to a local copy. With `%F` both would
/// pass a downloaded copy of a web page, and a link would become a file.
/// `file` is listed so that KDE passes local files too; `http` and `https`
/// are the links ShareKit shares.
enum DesktopEntry {
    /// The entry's text.
    static var text: String {
        """
        [Desktop Entry]
        Type=Application
        Version=1.4
        Name=ShareKit
        GenericName=Share to chat
        Comment=Share files, links and text into a chat thread or channel
        Exec=share send --desktop %U
        TryExec=share
        Icon=document-send
        Terminal=false
        StartupNotify=false
        Categories=Network;InstantMessaging;
        MimeType=\(ClientAssembly.offeredContentTypes.joined(separator: ";"));
        X-KDE-Protocols=file,http,https

        """
    }

    /// The text of `share desktop-entry --help`.
    static var help: String { t(.desktopEntryHelp) }

    /// `share desktop-entry [--install [--json]]`.
    /// - Parameters:
    ///   - arguments: the command line after `desktop-entry`.
    ///   - io: standard output and error.
    ///   - environment: `XDG_DATA_HOME`, `HOME` and `PATH` for `--install`.
    /// - Returns: 0 printed or installed, 1 the entry could not be written, 2 an invalid command line.
    static func run(_ arguments: [String], io: ProgramIO, environment: [String: String]) -> ExitCode {
        let parsed: ParsedArguments
        switch SessionCommandIO.parse(
            arguments, command: "desktop-entry", help: help, declaration: ShareCommands.desktopEntry, io: io)
        {
        case .run(let arguments): parsed = arguments
        case .done(let exit): return exit
        }
        guard parsed.positionals.isEmpty else {
            io.err.write("share desktop-entry: " + t(.desktopEntryNoArguments) + "\n")
            return .usage
        }
        guard parsed.has(Options.install) else {
            io.out.write(text)
            return .success
        }
        let output = SessionCommandIO(command: "desktop-entry", io: io, json: parsed.has(Options.json))
        guard let directory = applicationsDirectory(environment) else {
            return output.failure(localized(.desktopEntryNoDataHome))
        }
        let path = directory + "/sharekit.desktop"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return output.failure(
                localized(.desktopEntryCannotInstall, ["path": path, "error": error.localizedDescription]))
        }
        // GIO and KDE find an entry's types through the directory's
        // mimeinfo.cache: without it, "Open with" does not list ShareKit.
        let cacheUpdated =
            DesktopLaunch.findProgram("update-desktop-database", environment: environment).flatMap {
                ChildProgram.output([$0, directory], environment: environment)
            } != nil
        if output.json {
            io.writeJSON(["status": "installed", "path": JSONValue(path), "mime_cache_updated": .bool(cacheUpdated)])
        } else {
            io.out.write(t(.desktopEntryInstalled, ["path": TerminalText.neutralised(path)]) + "\n")
            if !cacheUpdated { io.err.write("share desktop-entry: " + t(.desktopEntryNoMimeCache) + "\n") }
        }
        return .success
    }

    /// `$XDG_DATA_HOME/applications`, else `~/.local/share/applications`
    /// (the XDG Base Directory default); nil without either. A relative
    /// `XDG_DATA_HOME` is invalid by that specification and ignored.
    static func applicationsDirectory(_ environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/applications" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/share/applications"
    }
}
