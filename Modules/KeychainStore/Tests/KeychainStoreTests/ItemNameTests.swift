import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore
import ShareKitSystemTesting
import Testing

@Suite("file keychain: names")
struct ItemNameTests {
    @Test("names with '..', '/' and other odd characters stay inside their group directory and round trip")
    func cannotEscape() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("jail/keychain")
        let store = FileKeychain(directory: base)
        let keys = [
            SecretItemKey(accessGroup: "..", service: "..", account: "..", scope: ".."),
            SecretItemKey(
                accessGroup: "../../escaped", service: "../../../../tmp/pwned", account: "/etc/passwd",
                scope: "https://x/../../y"),
            SecretItemKey(accessGroup: ".", service: ".lock", account: "~", scope: "%2F"),
            SecretItemKey(accessGroup: "g", service: ".tmp-123", account: "a~b~c", scope: "ünïcødé 🚀"),
            SecretItemKey(accessGroup: "g", service: "s.item", account: "", scope: "a.item"),
        ]
        for (index, key) in keys.enumerated() {
            try store.write(SecretValue(utf8: "v\(index)"), for: key)
        }
        for (index, key) in keys.enumerated() {
            #expect(try store.read(key) == SecretValue(utf8: "v\(index)"), "\(key)")
        }
        // Nothing was created outside the base directory…
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["jail"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("jail")) == ["keychain"])
        // …and inside it there is exactly one level of group directories holding only files.
        for group in try FileManager.default.contentsOfDirectory(atPath: base) {
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: base + "/" + group, isDirectory: &isDirectory)
                    && isDirectory.boolValue)
            #expect(group != "." && group != ".." && !group.hasPrefix("."))
            for entry in try FileManager.default.contentsOfDirectory(atPath: base + "/" + group) {
                #expect(entry == ".lock" || (entry.hasSuffix(".item") && !entry.hasPrefix(".")), "\(entry)")
                #expect(
                    !FileManager.default.fileExists(atPath: base + "/" + group + "/" + entry, isDirectory: &isDirectory)
                        || !isDirectory.boolValue)
            }
        }
        // Listing gives back exactly the keys written.
        for group in Set(keys.map(\.accessGroup)) {
            let expected = keys.filter { $0.accessGroup == group }
            #expect(Set(try store.keys(accessGroup: group)) == Set(expected))
        }
        #expect(Set(try store.accessGroups()) == Set(keys.map(\.accessGroup)))
    }

    @Test(
        "empty, control-character and overlong names are refused",
        arguments: [
            SecretItemKey(accessGroup: "", service: "s"),
            SecretItemKey(accessGroup: "g", service: ""),
            SecretItemKey(accessGroup: "g", service: "new\nline"),
            SecretItemKey(accessGroup: "g", service: "s", account: "nul\u{0}byte"),
            SecretItemKey(accessGroup: "g", service: "s", scope: "esc\u{1B}[31m"),
            SecretItemKey(
                accessGroup: "g", service: String(repeating: "s", count: 200),
                account: String(repeating: "a", count: 60)),
            SecretItemKey(accessGroup: String(repeating: "/", count: 90), service: "s"),
        ])
    func refusedNames(key: SecretItemKey) throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let store = FileKeychain(directory: directory.file("keychain"))
        #expect {
            try store.write(SecretValue(utf8: "v"), for: key)
        } throws: { error in
            guard case KeychainError.invalidName(let name) = error else { return false }
            // Control characters appear escaped, so the message stays one readable line.
            return !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        #expect(throws: KeychainError.self) { try store.read(key) }
        #expect(throws: KeychainError.self) { try store.delete(key) }
    }

    @Test("files the store did not write are ignored by listing")
    func foreignFiles() throws {
        let directory = try TemporaryDirectory(prefix: "sharekit-keychain")
        defer { directory.remove() }
        let base = directory.file("keychain")
        let store = FileKeychain(directory: base)
        let key = SecretItemKey(accessGroup: "g", service: "s")
        try store.write(SecretValue(utf8: "v"), for: key)
        for name in ["notes.txt", "a~b.item", "%zz~a~b.item", "x~y~z~w.item", ".tmp-1-2", "~a~b.item"] {
            _ = FileManager.default.createFile(
                atPath: base + "/g/" + name, contents: Data(), attributes: [.posixPermissions: 0o600])
        }
        #expect(try store.keys(accessGroup: "g") == [key])
    }
}
