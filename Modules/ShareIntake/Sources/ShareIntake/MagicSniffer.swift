internal import CShareKitMagic
internal import CShareKitMagicLoader
public import ShareKitIntakeInterface
import Synchronization

/// Tells a content type from a file's bytes with libmagic (`MAGIC_MIME_TYPE`,
/// the system's compiled magic database).
///
/// A libmagic handle is not safe to use from two threads at once, so the
/// one handle of a sniffer is opened on first use and used under a lock.
/// Symbolic links are followed: the person named the link, they mean its
/// target (and intake passes `/proc/self/fd/N` to sniff exactly the file it
/// opened).
///
/// libmagic looks at the first ``bytesExamined`` bytes of a file, not its
/// own default (7 MiB in file 5.44), and its text tests allocate several
/// times what they look at: with the default, sniffing any file of 7 MiB or
/// more raised the peak memory of `share send` by about 13 MiB.
public final class MagicSniffer: ContentSniffing {
    private let handle = Mutex<MagicHandle?>(nil)

    /// How much of a file libmagic examines: 1 MiB, its default before file
    /// 5.40; every signature of the types intake ranks lies far inside it.
    public static let bytesExamined = 1 << 20

    /// Makes a sniffer; the magic database is loaded on first use.
    public init() {}

    /// Closes the libmagic handle and unmaps its database (about 6 MiB
    /// resident once a file was sniffed); the next sniff loads it again.
    /// Intake calls this when a load is done, so that a long upload after
    /// it does not keep the database in memory.
    public func releaseDatabase() {
        handle.withLock { $0 = nil }
    }

    /// The content type of the file's bytes, e.g. `image/png`; libmagic's
    /// `inode/x-empty` for an empty file.
    /// - Parameter path: the file.
    /// - Returns: a lowercase media type without parameters.
    /// - Throws: ``IntakeError/unreadable(item:reason:)`` when the file
    ///   cannot be read, libmagic cannot be loaded or has no database.
    public func contentType(ofFileAt path: String) throws(IntakeError) -> String {
        let result: Result<String, IntakeError> = handle.withLock { slot in
            if slot == nil {
                // libmagic is opened here, on first use (docs/adr/0019).
                var message = [CChar](repeating: 0, count: 512)
                guard sk_magic_library_load(&message, message.count) == 0 else {
                    let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
                    return .failure(.unreadable(item: path, reason: String(decoding: bytes, as: UTF8.self)))
                }
                guard let opened = MagicHandle() else {
                    return .failure(.unreadable(item: path, reason: "libmagic cannot load its database"))
                }
                slot = opened
            }
            return slot!.contentType(ofFileAt: path)
        }
        return try result.get()
    }
}

/// One open libmagic cookie, closed with its owner.
private final class MagicHandle: @unchecked Sendable {
    // Only touched under MagicSniffer's lock.
    private let cookie: magic_t

    init?() {
        guard let cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR) else { return nil }
        guard magic_load(cookie, nil) == 0 else {
            magic_close(cookie)
            return nil
        }
        var limit = MagicSniffer.bytesExamined
        _ = magic_setparam(cookie, MAGIC_PARAM_BYTES_MAX, &limit)
        self.cookie = cookie
    }

    deinit { magic_close(cookie) }

    func contentType(ofFileAt path: String) -> Result<String, IntakeError> {
        guard let answer = magic_file(cookie, path) else {
            let reason =
                magic_error(cookie).map { String(cString: $0) } ?? "libmagic failed (errno \(magic_errno(cookie)))"
            return .failure(.unreadable(item: path, reason: reason))
        }
        let type = String(cString: answer).split(separator: ";").first.map { $0.lowercased() } ?? ""
        guard type.contains("/") else { return .failure(.unreadable(item: path, reason: "libmagic: \(type)")) }
        return .success(type)
    }
}
