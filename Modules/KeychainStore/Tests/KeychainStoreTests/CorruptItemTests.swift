import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import Testing

@Suite("file keychain: corrupt items")
struct CorruptItemTests {
    private let key = SecretItemKey(accessGroup: "group", service: "session.child", account: "alex")
    private let itemName = "session.child~alex~.item"

    @Test(
        "an undecodable item is reported as corrupt, still listed, and can be deleted",
        arguments: [
            "", "not json", #"{"format":"sharekit-keychain-item","version":1}"#,
            #"{"accessGroup":"group","account":"alex","format":"sharekit-keychain-item","scope":"","service":"session.child","value":"!!!","version":1}"#,
            #"{"accessGroup":"group","account":"alex","format":"sharekit-keychain-item","scope":"","service":"session.child","value":"","version":2}"#,
            #"{"accessGroup":"group","account":"alex","format":"other-format","scope":"","service":"session.child","value":"","version":1}"#,
        ])
    func corrupt(content: String) throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        try store.write(SecretValue(utf8: "v"), for: key)
        try Data(content.utf8).write(to: URL(fileURLWithPath: base + "/group/" + itemName))
        #expect(throws: KeychainError.corruptItem(key)) { try store.read(key) }
        #expect(try store.keys(accessGroup: "group") == [key])
        try store.delete(key)
        #expect(try store.read(key) == nil)
    }

    @Test("an item copied under another item's name is corrupt (its key fields do not match)")
    func mismatchedKey() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        let other = SecretItemKey(accessGroup: "group", service: "preview.token", account: "alex")
        try store.write(SecretValue(utf8: "token"), for: key)
        try store.write(SecretValue(utf8: "preview"), for: other)
        let source = base + "/group/" + itemName
        let target = base + "/group/preview.token~alex~.item"
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        #expect(throws: KeychainError.corruptItem(other)) { try store.read(other) }
    }

    @Test("an oversized item file is corrupt, not read into memory whole")
    func oversizedFile() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        try store.write(SecretValue(utf8: "v"), for: key)
        try Data(repeating: UInt8(ascii: "x"), count: 4 * 1024 * 1024).write(
            to: URL(fileURLWithPath: base + "/group/" + itemName))
        #expect(throws: KeychainError.corruptItem(key)) { try store.read(key) }
    }
}
