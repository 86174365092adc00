import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file keychain over the shared secure-file code (Support/SecureFiles):
/// temporaries, lock files and how that code's failures reach callers.
@Suite("file keychain: files on disk")
struct FileKeychainFileHandlingTests {
    private let key = SecretItemKey(accessGroup: "group", service: "session.child", account: "alex")

    @Test("an item whose file name has the full 255 bytes is written and read back; no temporary is left")
    func longestName() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        // `<service>~~.item`: 248 + 2 + 5 bytes.
        let longest = SecretItemKey(accessGroup: "g", service: String(repeating: "s", count: 248), account: "")
        try store.write(SecretValue(utf8: "first"), for: longest)
        try store.write(SecretValue(utf8: "second"), for: longest)
        #expect(try store.read(longest) == SecretValue(utf8: "second"))
        let names = try FileManager.default.contentsOfDirectory(atPath: base + "/g").sorted()
        #expect(names == [".lock", String(repeating: "s", count: 248) + "~~.item"])
        #expect(names.allSatisfy { $0.utf8.count <= 255 })
    }

    @Test("the next write removes every temporary a crashed writer left in the group, and nothing else")
    func staleTemporaries() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        try store.write(SecretValue(utf8: "v"), for: key)
        let group = base + "/group"
        let stale = [
            ".session.child~alex~.item.tmp-4242-9f3a",  // this item's
            ".other~bob~.item.tmp-17-ab12",  // another item's: the group's lock covers it too
            ".tmp-99-cafe",  // the form earlier versions wrote
        ]
        let kept = ["notes.txt", ".tmp-notes", "x.tmp-1-2"]
        for name in stale + kept {
            #expect(
                FileManager.default.createFile(
                    atPath: group + "/" + name, contents: Data("secret".utf8), attributes: [.posixPermissions: 0o600]))
        }
        try store.write(SecretValue(utf8: "w"), for: key)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: group))
        #expect(names == Set([".lock", "session.child~alex~.item"] + kept))
        #expect(try store.read(key) == SecretValue(utf8: "w"))
    }

    @Test("a FIFO or a symbolic link in place of the group's lock file is refused without hanging")
    func unsafeLockFile() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        try store.write(SecretValue(utf8: "v"), for: key)
        let lock = base + "/group/.lock"
        try FileManager.default.removeItem(atPath: lock)
        #expect(mkfifo(lock, 0o600) == 0)
        #expect(throws: KeychainError.notARegularFile(path: lock)) { try store.read(key) }
        #expect(throws: KeychainError.notARegularFile(path: lock)) { try store.write(SecretValue(utf8: "w"), for: key) }
        try FileManager.default.removeItem(atPath: lock)
        let elsewhere = directory.file("elsewhere.lock")
        #expect(
            FileManager.default.createFile(atPath: elsewhere, contents: nil, attributes: [.posixPermissions: 0o600]))
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: elsewhere)
        #expect(throws: KeychainError.notARegularFile(path: lock)) { try store.read(key) }
    }

    @Test("a system call failure is a KeychainError.io naming the operation, the path and errno")
    func ioFailure() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let file = directory.file("not-a-directory")
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let store = FileKeychain(directory: file + "/keychain")
        let expected = KeychainError.io(operation: "open", path: file, errno: ENOTDIR)
        #expect(throws: expected) { try store.write(SecretValue(utf8: "v"), for: key) }
        #expect(throws: expected) { try store.accessGroups() }
        #expect(String(describing: expected) == "open \(file) failed (errno \(ENOTDIR))")
    }
}
