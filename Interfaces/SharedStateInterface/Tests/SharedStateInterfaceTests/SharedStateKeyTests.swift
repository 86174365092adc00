import KeychainInterface
import SharedStateInterface
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

    @Test("nonce keys are per origin")
    func nonceKeys() throws {
        let key = SharedStateKey.dpopNonce(origin: "https://chat.example.com")
        #expect(key.name == "dpop.nonce.https://chat.example.com")
        #expect(try SharedStateKey(key.name) == key)
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
