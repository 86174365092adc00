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

@Suite("file keychain: refusing unsafe files")
struct FileKeychainSecurityTests {
    private let key = SecretItemKey(accessGroup: "group", service: "session.child", account: "alex")
    private var itemName: String { "session.child~alex~.item" }

    /// A store with one item written, and the paths involved.
    private func populated() throws -> (TemporaryDirectory, FileKeychain, base: String, group: String, item: String) {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        try store.write(SecretValue(utf8: "value"), for: key)
        return (directory, store, base, base + "/group", base + "/group/" + itemName)
    }

    @Test("a base directory with mode 0755 is refused for every operation, naming the fix")
    func openBaseDirectory() throws {
        let (directory, store, base, _, _) = try populated()
        defer { directory.remove() }
        chmod(base, 0o755)
        let expected = KeychainError.insecurePermissions(path: base, mode: 0o755, expected: 0o700)
        #expect(throws: expected) { try store.read(key) }
        #expect(throws: expected) { try store.write(SecretValue(utf8: "new"), for: key) }
        #expect(throws: expected) { try store.delete(key) }
        #expect(throws: expected) { try store.keys(accessGroup: "group") }
        #expect(String(describing: expected).contains("chmod 700 \(base)"))
    }

    @Test("an access-group directory with mode 0750 is refused")
    func openGroupDirectory() throws {
        let (directory, store, _, group, _) = try populated()
        defer { directory.remove() }
        chmod(group, 0o750)
        #expect(throws: KeychainError.insecurePermissions(path: group, mode: 0o750, expected: 0o700)) {
            try store.read(key)
        }
    }

    @Test("an item with mode 0644 is refused for reading and for overwriting")
    func openItem() throws {
        let (directory, store, _, _, item) = try populated()
        defer { directory.remove() }
        chmod(item, 0o644)
        let expected = KeychainError.insecurePermissions(path: item, mode: 0o644, expected: 0o600)
        #expect(throws: expected) { try store.read(key) }
        #expect(throws: expected) { try store.write(SecretValue(utf8: "new"), for: key) }
        // Deleting is how a person recovers, so it is allowed.
        try store.delete(key)
        #expect(try store.read(key) == nil)
    }

    @Test("a symbolic link in place of an item is refused, not followed")
    func symlinkedItem() throws {
        let (directory, store, _, _, item) = try populated()
        defer { directory.remove() }
        let target = directory.file("elsewhere.item")
        try FileManager.default.moveItem(atPath: item, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: item, withDestinationPath: target)
        #expect(throws: KeychainError.notARegularFile(path: item)) { try store.read(key) }
        #expect(throws: KeychainError.notARegularFile(path: item)) {
            try store.write(SecretValue(utf8: "new"), for: key)
        }
        // The link's target was never written through.
        #expect(
            FileManager.default.contents(atPath: target).map {
                String(decoding: $0, as: UTF8.self).contains("\"value\":\"dmFsdWU=\"")
            } == true)
    }

    @Test("a symbolic link as the base or the group directory is refused")
    func symlinkedDirectories() throws {
        let (directory, _, base, group, _) = try populated()
        defer { directory.remove() }
        let linkedBase = directory.file("linked-keychain")
        try FileManager.default.createSymbolicLink(atPath: linkedBase, withDestinationPath: base)
        #expect(throws: KeychainError.notARegularFile(path: linkedBase)) {
            try FileKeychain(directory: linkedBase).read(key)
        }

        let store = FileKeychain(directory: base)
        try FileManager.default.moveItem(atPath: group, toPath: directory.file("real-group"))
        try FileManager.default.createSymbolicLink(atPath: group, withDestinationPath: directory.file("real-group"))
        #expect(throws: KeychainError.notARegularFile(path: group)) { try store.read(key) }
        #expect(throws: KeychainError.notARegularFile(path: group)) {
            try store.write(SecretValue(utf8: "v"), for: key)
        }
    }

    @Test("a FIFO in place of an item is refused without hanging")
    func fifoItem() throws {
        let (directory, store, _, _, item) = try populated()
        defer { directory.remove() }
        try FileManager.default.removeItem(atPath: item)
        #expect(mkfifo(item, 0o600) == 0)
        #expect(throws: KeychainError.notARegularFile(path: item)) { try store.read(key) }
    }

    @Test(
        "items and directories owned by another user are refused", .enabled(if: geteuid() == 0, "needs root to chown"))
    func wrongOwner() throws {
        let (directory, store, base, group, item) = try populated()
        defer { directory.remove() }
        chown(item, 12345, 12345)
        #expect(throws: KeychainError.wrongOwner(path: item, owner: 12345, expected: 0)) { try store.read(key) }
        #expect(throws: KeychainError.wrongOwner(path: item, owner: 12345, expected: 0)) {
            try store.write(SecretValue(utf8: "new"), for: key)
        }
        chown(item, 0, 0)
        chown(group, 12345, 12345)
        #expect(throws: KeychainError.wrongOwner(path: group, owner: 12345, expected: 0)) { try store.read(key) }
        chown(group, 0, 0)
        chown(base, 12345, 12345)
        #expect(throws: KeychainError.wrongOwner(path: base, owner: 12345, expected: 0)) {
            try store.keys(accessGroup: "group")
        }
        chown(base, 0, 0)
        chown(group + "/.lock", 12345, 12345)
        #expect(throws: KeychainError.wrongOwner(path: group + "/.lock", owner: 12345, expected: 0)) {
            try store.read(key)
        }
    }
}
