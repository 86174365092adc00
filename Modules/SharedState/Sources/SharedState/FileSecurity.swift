import SharedStateInterface

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ownership and permission rules of the shared container: everything
/// belongs to the user running the program and nobody else can read it.
enum FileSecurity {
    /// The mode of directories: owner only.
    static let directoryMode: UInt32 = 0o700
    /// The mode of items and lock files: owner read/write only.
    static let fileMode: UInt32 = 0o600

    /// The kind of file a check expects.
    enum Kind {
        case directory
        case regularFile
    }

    /// Refuses a file of the wrong kind, owner or permissions.
    ///
    /// Only bits for group and others are refused: they are what would let
    /// another user read the state or plant files in the inbox. An owner-only mode narrower than the
    /// expected one is left to fail on use with its own errno.
    /// - Parameters:
    ///   - info: the file's `stat`, taken without following symbolic links.
    ///   - path: the path, for the error.
    ///   - kind: what the file must be.
    /// - Throws: ``SharedStateError/notARegularFile(path:)``, ``SharedStateError/wrongOwner(path:owner:expected:)``
    ///   or ``SharedStateError/insecurePermissions(path:mode:)``.
    static func check(_ info: stat, path: String, kind: Kind) throws {
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        let expectedType = kind == .directory ? UInt32(S_IFDIR) : UInt32(S_IFREG)
        guard type == expectedType else { throw SharedStateError.notARegularFile(path: path) }
        let owner = UInt32(info.st_uid)
        let me = UInt32(geteuid())
        guard owner == me else { throw SharedStateError.wrongOwner(path: path, owner: owner, expected: me) }
        let mode = UInt32(info.st_mode) & 0o7777
        guard mode & 0o077 == 0 else { throw SharedStateError.insecurePermissions(path: path, mode: mode) }
    }
}
