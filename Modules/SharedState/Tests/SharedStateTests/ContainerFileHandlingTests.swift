import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The container over the shared secure-file code (Support/SecureFiles):
/// temporaries, lock files and how that code's failures reach callers.
@Suite("container files on disk")
struct ContainerFileHandlingTests {
    @Test("a write removes the stale temporaries of state.json only: other files' are not its lock's to remove")
    func staleTemporaries() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-files")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let stale = [".state.json.tmp-4242-9f3a"]
        let kept = [".other.json.tmp-17-ab12", ".tmp-99-cafe", ".state.json.tmp-notes"]
        for name in stale + kept {
            #expect(
                FileManager.default.createFile(
                    atPath: container.rootPath + "/" + name, contents: Data("{}".utf8),
                    attributes: [.posixPermissions: 0o600]))
        }
        try container.state.set("full", for: .previewMode)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: container.rootPath))
        #expect(names == Set(["inbox", "locks", "state.json", "state.json.lock"] + kept))
    }

    @Test("a FIFO in place of a lock file is refused without hanging")
    func fifoLockFile() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-files")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        let named = container.locksPath + "/refresh.lock"
        #expect(mkfifo(named, 0o600) == 0)
        #expect(throws: SharedStateError.notARegularFile(path: named)) {
            try container.locks.withExclusiveLock(named: "refresh") {}
        }
        #expect(throws: SharedStateError.notARegularFile(path: named)) {
            try container.locks.withExclusiveLockIfAvailable(named: "refresh") {}
        }
        let stateLock = container.rootPath + "/state.json.lock"
        #expect(mkfifo(stateLock, 0o600) == 0)
        #expect(throws: SharedStateError.notARegularFile(path: stateLock)) { try container.state.snapshot() }
    }

    @Test("a lock file others can read is refused with the container's own error")
    func insecureLockFile() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-files")
        defer { directory.remove() }
        let container = try SharedContainerDirectory(directory: directory.file("container"))
        try container.locks.withExclusiveLock(named: "refresh") {}
        let path = container.locksPath + "/refresh.lock"
        chmod(path, 0o644)
        #expect(throws: SharedStateError.insecurePermissions(path: path, mode: 0o644)) {
            try container.locks.withExclusiveLock(named: "refresh") {}
        }
    }

    @Test("a system call failure is a SharedStateError.io naming the operation, the path and errno")
    func ioFailure() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-files")
        defer { directory.remove() }
        let file = directory.file("not-a-directory")
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let expected = SharedStateError.io(operation: "open", path: file, errno: ENOTDIR)
        #expect(throws: expected) { try SharedContainerDirectory(directory: file + "/container") }
        #expect(throws: expected) { try FileSharedState(directory: file + "/container").snapshot() }
        #expect(throws: expected) {
            try ContainerLock(directory: file + "/locks").withExclusiveLock(named: "refresh") {}
        }
    }
}
