import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import Testing

@Suite("file keychain: items")
struct FileKeychainTests {
    private let token = SecretItemKey(
        accessGroup: "com.example.share", service: "session.child", account: "alex", scope: "https://chat.example.com")
    private let deviceKey = SecretItemKey(accessGroup: "com.example.share", service: "dpop.device-key")

    @Test("a binary value round trips, and a second store over the same directory reads it")
    func roundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        #expect(try store.read(token) == nil)
        let value = SecretValue(bytes: [0, 1, 2, 0xFF, 0xFE, 0] + Array("token".utf8))
        try store.write(value, for: token)
        #expect(try store.read(token) == value)
        #expect(try FileKeychain(directory: directory.file("keychain")).read(token) == value)
        try store.write(SecretValue(bytes: []), for: deviceKey)
        #expect(try store.read(deviceKey) == SecretValue(bytes: []))
    }

    @Test("writing again replaces the value")
    func overwrite() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        try store.write(SecretValue(utf8: "first"), for: token)
        try store.write(SecretValue(utf8: "second, longer than the first"), for: token)
        #expect(try store.read(token) == SecretValue(utf8: "second, longer than the first"))
        try store.write(SecretValue(utf8: "3"), for: token)
        #expect(try store.read(token) == SecretValue(utf8: "3"))
        #expect(try store.keys(accessGroup: token.accessGroup) == [token])
    }

    @Test("deleting removes the item; deleting a missing item, group or store is fine")
    func delete() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        try store.delete(token)  // no directory at all yet
        try store.write(SecretValue(utf8: "x"), for: token)
        try store.delete(deviceKey)  // missing item in an existing group
        try store.delete(SecretItemKey(accessGroup: "no.such.group", service: "s"))
        try store.delete(token)
        #expect(try store.read(token) == nil)
        try store.delete(token)
        #expect(try store.keys(accessGroup: token.accessGroup) == [])
    }

    @Test("listing gives every key of a group (never values), sorted; groups are isolated")
    func listingAndGroups() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        let other = SecretItemKey(
            accessGroup: "org.other.group", service: "session.child", account: "alex", scope: token.scope)
        let preview = SecretItemKey(
            accessGroup: token.accessGroup, service: "preview.token", account: "alex", scope: token.scope)
        let plain = SecretItemKey(accessGroup: token.accessGroup, service: "server.url", account: "", scope: "")
        try store.write(SecretValue(utf8: "t"), for: token)
        try store.write(SecretValue(utf8: "d"), for: deviceKey)
        try store.write(SecretValue(utf8: "p"), for: preview)
        try store.write(SecretValue(utf8: "u"), for: plain)
        try store.write(SecretValue(utf8: "o"), for: other)
        #expect(try store.keys(accessGroup: token.accessGroup) == [deviceKey, preview, plain, token])
        #expect(try store.keys(accessGroup: "org.other.group") == [other])
        #expect(try store.keys(accessGroup: "empty.group") == [])
        #expect(try store.accessGroups() == ["com.example.share", "org.other.group"])
        // Same service, account and scope in two groups are two items.
        #expect(
            try store.read(
                SecretItemKey(
                    accessGroup: "org.other.group", service: token.service, account: token.account, scope: token.scope))
                == SecretValue(utf8: "o"))
        #expect(try store.read(token) == SecretValue(utf8: "t"))
        try store.deleteAll(accessGroup: token.accessGroup) { $0.account == "alex" }
        #expect(try store.keys(accessGroup: token.accessGroup) == [deviceKey, plain])
        #expect(try store.keys(accessGroup: "org.other.group") == [other])
    }

    @Test("directories are 0700, items and the lock file 0600; the item file is versioned and names its key")
    func layout() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        // Missing parents are made too, 0700.
        let base = directory.file("data/sharekit/keychain")
        let store = FileKeychain(directory: base)
        try store.write(SecretValue(utf8: "v"), for: token)
        let group = base + "/com.example.share"
        for path in [directory.file("data"), directory.file("data/sharekit"), base, group] {
            #expect(try mode(of: path) == 0o700, "\(path)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: group).sorted()
        #expect(names == [".lock", "session.child~alex~https%3A%2F%2Fchat.example.com.item"])
        #expect(try mode(of: group + "/.lock") == 0o600)
        let item = group + "/" + names[1]
        #expect(try mode(of: item) == 0o600)
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: item))) as? [String: Any]
        #expect(json?["format"] as? String == "sharekit-keychain-item")
        #expect(json?["version"] as? Int == 1)
        #expect(json?["accessGroup"] as? String == token.accessGroup)
        #expect(json?["service"] as? String == token.service)
        #expect(json?["account"] as? String == token.account)
        #expect(json?["scope"] as? String == token.scope)
    }

    @Test("values up to 64 KiB are stored; larger ones are refused without writing")
    func sizeLimit() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        let limit = FileKeychain.maximumValueBytes
        let largest = SecretValue(bytes: Array(repeating: 7, count: limit))
        try store.write(largest, for: token)
        #expect(try store.read(token) == largest)
        #expect(throws: KeychainError.valueTooLarge(token, bytes: limit + 1, limit: limit)) {
            try store.write(SecretValue(bytes: Array(repeating: 8, count: limit + 1)), for: token)
        }
        #expect(try store.read(token) == largest)
    }
}

/// The permission bits of a path (not following a final symbolic link).
func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}
