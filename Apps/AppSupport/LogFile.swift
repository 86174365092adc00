import Foundation

/// Where a long-running program (`share-server`, `share-daemon`) writes its
/// log when it was started on a terminal: a file, so that a program started
/// with `&` does not write over the shell the person goes on typing in. It
/// says where in one line on standard error; `--verbose` keeps the log on
/// the terminal, and where standard error is not a terminal (the journal,
/// a pipe, a file) the log goes there as it always did.
public enum LogFile {
    /// A log file larger than this when the program starts is moved to
    /// `NAME.1` (replacing the one before) and a new one begun.
    public static let rotationBytes: Int64 = 16 << 20

    /// `$XDG_STATE_HOME/sharekit`, else `~/.local/state/sharekit`.
    /// - Parameter environment: the process environment.
    public static func defaultDirectory(environment: [String: String]) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/sharekit" }
        return (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/state/sharekit"
    }

    /// Whether the log goes to a file: standard error is a terminal and
    /// the person did not ask for it there.
    /// - Parameters:
    ///   - standardError: the program's standard error.
    ///   - verbose: `--verbose` (or what stands for it).
    public static func wanted(standardError: any OutputSink, verbose: Bool) -> Bool {
        standardError.isTerminal && !verbose
    }

    /// Opens `path` for appending: its missing folders are made (0700), the
    /// file is made 0600, never followed through a symbolic link, and moved
    /// aside first when it is over ``rotationBytes``.
    /// - Parameter path: an absolute path.
    /// - Returns: a sink that writes to it (the descriptor stays open for the
    ///   life of the process).
    /// - Throws: ``ProgramError/cannotWrite(_:reason:)`` naming the path (or
    ///   the folder that cannot be made) and the reason.
    public static func open(_ path: String) throws(ProgramError) -> FileDescriptorSink {
        let folder = (path as NSString).deletingLastPathComponent
        if let unmade = PrivateFolders.make(folder) { throw .cannotWrite(unmade.path, reason: unmade.reason) }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) > rotationBytes {
            _ = rename(path, path + ".1")
        }
        let fd = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
        guard fd >= 0 else { throw .cannotWrite(path, reason: String(cString: strerror(errno))) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else {
            close(fd)
            throw .cannotWrite(path, reason: "it is not a regular file of this user")
        }
        fchmod(fd, 0o600)
        return FileDescriptorSink(fd: fd)
    }

}

/// Folders a program makes for its own files (a log, a database): private.
public enum PrivateFolders {
    /// Makes `folder` and every missing folder above it, each 0700
    /// whatever the umask; folders that exist are left as they are.
    /// - Parameter folder: an absolute path, or one relative to the working directory.
    /// - Returns: nil when every folder is there, else the first folder that
    ///   cannot be made and why, in the system's words: each caller says it
    ///   in its own terms (a log file, a database).
    public static func make(_ folder: String) -> (path: String, reason: String)? {
        let absolute = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
        var path = ""
        for component in absolute.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) == 0 {
                chmod(path, 0o700)
            } else if errno != EEXIST {
                return (path, String(cString: strerror(errno)))
            }
        }
        return nil
    }
}
