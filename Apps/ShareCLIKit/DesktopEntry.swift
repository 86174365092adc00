import AppSupport
import ClientAssembly
import ShareCore

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

    static func run(_ arguments: [String], io: ProgramIO) -> ExitCode {
        guard arguments.isEmpty else {
            io.err.write("share desktop-entry: " + t(.desktopEntryNoArguments) + "\n")
            return .usage
        }
        io.out.write(text)
        return .success
    }
}
