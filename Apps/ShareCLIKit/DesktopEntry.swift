import AppSupport
import ClientAssembly

/// The freedesktop desktop entry that offers ShareKit in file managers'
/// "Open with" (`contrib/desktop/sharekit.desktop`), generated from
/// `ClientAssembly.offeredContentTypes` (the intake's list) so that the list is written once.
/// `share desktop-entry` prints it; a test checks the shipped file is this text.
enum DesktopEntry {
    /// The entry's text.
    static var text: String {
        """
        [Desktop Entry]
        Type=Application
        Version=1.4
        Name=ShareKit
        GenericName=Share to chat
        Comment=Share files into a chat thread or channel
        Exec=share send --desktop %F
        TryExec=share
        Icon=document-send
        Terminal=false
        NoDisplay=true
        StartupNotify=false
        Categories=Network;InstantMessaging;
        MimeType=\(ClientAssembly.offeredContentTypes.joined(separator: ";"));

        """
    }

    /// The text of `share desktop-entry --help`.
    static let help = """
        Usage: share desktop-entry

        Prints the freedesktop desktop entry that offers ShareKit in file managers'
        "Open with" (the file contrib/desktop/sharekit.desktop is this text). Install
        it with: share desktop-entry > ~/.local/share/applications/sharekit.desktop

        Exit codes: 0 printed, 2 invalid command line.

        """

    static func run(_ arguments: [String], io: ProgramIO) -> ExitCode {
        guard arguments.isEmpty else {
            io.err.write("share desktop-entry: takes no arguments; it prints contrib/desktop/sharekit.desktop\n")
            return .usage
        }
        io.out.write(text)
        return .success
    }
}
