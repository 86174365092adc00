import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// A small tmpfs mounted for one test (a disk that fills up), when the
/// machine allows mounting (root with CAP_SYS_ADMIN); tests that need one
/// are skipped otherwise, with ``skipReason``.
enum Tmpfs {
    /// Why a test that needs a tmpfs does not run here.
    static let skipReason: Comment =
        "mounting a tmpfs is not permitted here (needs root with CAP_SYS_ADMIN): the full-disk test is skipped"

    /// Whether `mount -t tmpfs` works: mounts and unmounts a probe once.
    static let canMount: Bool = {
        guard geteuid() == 0, let probe = try? TemporaryDirectory(prefix: "tmpfs-probe") else { return false }
        defer { probe.remove() }
        guard (try? mount(at: probe.path, bytes: 64 << 10)) != nil else { return false }
        unmount(probe.path)
        return true
    }()

    /// Mounts a tmpfs of `bytes` at `path` (an existing directory).
    /// - Throws: when `mount` fails.
    static func mount(at path: String, bytes: Int) throws {
        let result = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", path])
        guard result.status == 0 else { throw ServerProcessError("mount tmpfs at \(path): \(result.stderr)") }
    }

    /// Unmounts `path`, ignoring failures.
    static func unmount(_ path: String) {
        _ = try? runProcess("/bin/umount", [path])
    }

    /// Writes zeros into a new file at `path` until the file system is
    /// full, then gives `leaving` bytes back (the file is shortened), so
    /// that a write of more than that fills the disk half way.
    /// - Parameters:
    ///   - path: the new file.
    ///   - leaving: the bytes left free (rounded by the file system to its pages).
    /// - Returns: the bytes the file keeps.
    static func fill(_ path: String, leaving: Int = 0) -> Int {
        // Close-on-exec: a server another test starts meanwhile must not inherit
        // the filler, or its space stays taken after the file is removed.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
            let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            total += n
        }
        guard leaving > 0 else { return total }
        let kept = max(0, total - leaving)
        guard ftruncate(fd, off_t(kept)) == 0 else { return total }
        return kept
    }
}
