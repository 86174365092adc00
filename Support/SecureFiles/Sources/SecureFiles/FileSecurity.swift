#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ownership and permission rules of private files: everything belongs
/// to the user running the program and nobody else can read it.
public enum FileSecurity {
    /// The mode of directories: owner only.
    public static let directoryMode: UInt32 = 0o700
    /// The mode of files and lock files: owner read/write only.
    public static let fileMode: UInt32 = 0o600

    /// The kind of file a check expects.
    public enum Kind: String, Sendable, Equatable {
        /// A directory (mode ``FileSecurity/directoryMode``).
        case directory
        /// A regular file (mode ``FileSecurity/fileMode``).
        case regularFile
    }

    /// Refuses a file of the wrong kind, owner or permissions.
    ///
    /// Only bits for group and others are refused: they are what would let
    /// another user read a file or plant one. An owner-only mode narrower
    /// than the expected one is left to fail on use with its own errno.
    /// - Parameters:
    ///   - info: the file's `stat`, taken from the open descriptor or
    ///     without following symbolic links.
    ///   - path: the path, for the error.
    ///   - kind: what the file must be.
    /// - Throws: ``SecureFileError/wrongFileType(path:expected:)``,
    ///   ``SecureFileError/wrongOwner(path:owner:expected:)`` or
    ///   ``SecureFileError/insecurePermissions(path:mode:expected:)``.
    static func check(_ info: stat, path: String, kind: Kind) throws(SecureFileError) {
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        let expectedType = kind == .directory ? UInt32(S_IFDIR) : UInt32(S_IFREG)
        guard type == expectedType else { throw .wrongFileType(path: path, expected: kind) }
        let owner = UInt32(info.st_uid)
        let me = UInt32(geteuid())
        guard owner == me else { throw .wrongOwner(path: path, owner: owner, expected: me) }
        let mode = UInt32(info.st_mode) & 0o7777
        guard mode & 0o077 == 0 else {
            throw .insecurePermissions(path: path, mode: mode, expected: kind == .directory ? directoryMode : fileMode)
        }
    }
}
