import ShareKitKeychainInterface
import ShareKitSharedStateInterface
import Testing

@Suite("shared state keys and secret values")
struct SharedStateKeyTests {
    @Test("keys on the allow-list are accepted", arguments: SharedStateKey.fixedKeys.map(\.name))
    func allowed(name: String) throws {
        #expect(try SharedStateKey(name).name == name)
    }

    @Test(
        "keys outside the allow-list are refused, naming the key",
        arguments: [
            "message.text", "session.access_token", "dpop.nonce.", "dpop.nonce.has space", "",
        ])
    func refused(name: String) {
        #expect(throws: SharedStateError.keyNotAllowed(name)) { try SharedStateKey(name) }
    }

    @Test("nonce keys are per origin and name it by a digest, never by its address")
    func nonceKeys() throws {
        let key = SharedStateKey.dpopNonce(origin: "https://chat.example.com")
        #expect(key.name.hasPrefix("dpop.nonce.") && key.name.count == "dpop.nonce.".count + 16)
        #expect(!key.name.contains("chat.example.com"))
        #expect(try SharedStateKey(key.name) == key)
        #expect(key != SharedStateKey.dpopNonce(origin: "https://chat.example.com:8443"))
        #expect(key == SharedStateKey.dpopNonce(origin: "https://chat.example.com"), "the same origin, the same key")
        // FNV-1a 64 of the empty string is its offset basis.
        #expect(SharedStateKey.dpopNonce(origin: "").name == "dpop.nonce.cbf29ce484222325")
    }

    @Test("an account's keys name it by a digest of its server and username, never by either")
    func accountKeys() throws {
        let alex = AccountScope(origin: "https://chat.example.com", username: "alex")
        for base in SharedStateKey.accountKeys {
            let key = base.scoped(to: alex)
            #expect(key.name == "account.\(alex.digest).\(base.name)")
            #expect(!key.name.contains("chat.example.com") && !key.name.contains("alex"))
            #expect(try SharedStateKey(key.name) == key, "read back from the state file")
        }
        let others = [
            AccountScope(origin: "https://chat.example.com", username: "sam"),
            AccountScope(origin: "https://chat.example.com:8443", username: "alex"),
            AccountScope(origin: "https://chat.example.com", username: nil),
        ]
        for other in others { #expect(other.digest != alex.digest, "\(other)") }
        #expect(AccountScope(origin: "https://chat.example.com", username: "alex") == alex)
    }

    @Test(
        "a key of an account that is not an account's value, or a malformed digest, is refused",
        arguments: [
            "account.0123456789abcdef.upload.budget", "account.0123456789abcdef.dpop.nonce.0123456789abcdef",
            "account.0123.targets.recent", "account.0123456789ABCDEF.targets.recent", "account.0123456789abcdef",
            "account.0123456789abcdef.", "account.0123456789abcdefXtargets.recent",
        ])
    func accountKeyRefused(name: String) {
        #expect(throws: SharedStateError.keyNotAllowed(name)) { try SharedStateKey(name) }
    }

    @Test("the allow-list is exactly the keys of the container's small values: no name, no server address")
    func allowList() {
        #expect(
            Set(SharedStateKey.fixedKeys.map(\.name)) == [
                "notify.preview_mode", "file_max_upload_bytes", "message_max_attachments",
                "client.share.recent_targets", "upload.part_size", "upload.budget", "client.push.fetch_timeout",
                "targets.recent", "counters.push_display.duration_ms", "counters.push_display.count",
                "counters.push.placeholder", "upload.accepted_content_types", "counters.push.preview_refused",
                "upload.digest_algorithms",
            ])
    }

    @Test(
        "the keys earlier versions wrote are retired: refused as keys, recognised for the move",
        arguments: ["server.url", "account.username", "dpop.nonce.https://chat.example.com"])
    func retired(name: String) {
        #expect(throws: SharedStateError.keyNotAllowed(name)) { try SharedStateKey(name) }
        #expect(SharedStateKey.isRetired(name))
    }

    @Test("allowed keys and unknown ones are not retired")
    func notRetired() {
        for key in SharedStateKey.fixedKeys { #expect(!SharedStateKey.isRetired(key.name)) }
        #expect(!SharedStateKey.isRetired(SharedStateKey.dpopNonce(origin: "https://chat.example.com").name))
        #expect(!SharedStateKey.isRetired("some.future.key"))
    }

    @Test("a secret value never prints its bytes")
    func secretRedaction() {
        let secret = SecretValue(utf8: "hunter2-token-value")
        let shown = ["\(secret)", String(describing: secret), String(reflecting: secret), "\([secret])"]
        for text in shown {
            #expect(!text.contains("hunter2"))
        }
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        #expect(secret.utf8String == "hunter2-token-value")
    }

    @Test("keychain errors name the item, never a value")
    func errorsNameItems() {
        let key = SecretItemKey(
            accessGroup: "group", service: "session.child", account: "alex", scope: "https://chat.example.com")
        #expect(
            "\(KeychainError.corruptItem(key))"
                == "keychain item group/session.child/alex@https://chat.example.com is corrupt")
    }
}
