import ShareKitSharedStateInterface
import ShareKitSharedStateInterfaceTesting
import Testing

/// The values of an account in the shared state: logout removes them, and
/// what an earlier version kept without an account goes to the one account
/// it can have come from, or nowhere.
@Suite("account values in the shared state")
struct AccountValuesTests {
    private let mine = AccountScope(origin: "https://a.example", username: "ann")

    @Test("unscoped values move to their owner, whose own values win, and the old keys go")
    func moveToOwner() throws {
        let state = InMemorySharedState()
        try state.set("100", for: .fileMaxUploadBytes)
        try state.set("3", for: .messageMaxAttachments)
        try state.set("7", for: SharedStateKey.messageMaxAttachments.scoped(to: mine))
        #expect(try state.moveUnscopedAccountValues(to: mine))
        #expect(try state.value(for: SharedStateKey.fileMaxUploadBytes.scoped(to: mine)) == "100")
        #expect(try state.value(for: SharedStateKey.messageMaxAttachments.scoped(to: mine)) == "7")
        #expect(try state.value(for: .fileMaxUploadBytes) == nil)
        #expect(try !state.moveUnscopedAccountValues(to: mine), "nothing is left to move")
    }

    @Test("without an owner the unscoped values are dropped")
    func dropWithoutOwner() throws {
        let state = InMemorySharedState()
        try state.set("100", for: .fileMaxUploadBytes)
        #expect(try state.moveUnscopedAccountValues(to: nil))
        #expect(try state.value(for: .fileMaxUploadBytes) == nil)
        #expect(try state.value(for: SharedStateKey.fileMaxUploadBytes.scoped(to: mine)) == nil)
    }

    @Test("the owner is looked up only when something is left to move; when that fails, nothing moves")
    func ownerLookedUpOnlyWhenNeeded() throws {
        struct Unreadable: Error {}
        let state = InMemorySharedState()
        var lookups = 0
        let owner = {
            lookups += 1
            return mine
        }
        #expect(try !state.moveUnscopedAccountValues(toOwner: owner))
        #expect(lookups == 0, "a start with nothing to move reads no keychain")

        try state.set("100", for: .fileMaxUploadBytes)
        #expect(throws: Unreadable.self) { try state.moveUnscopedAccountValues(toOwner: { throw Unreadable() }) }
        #expect(try state.value(for: .fileMaxUploadBytes) == "100", "kept for the next start")

        #expect(try state.moveUnscopedAccountValues(toOwner: owner))
        #expect(lookups == 1)
        #expect(try state.value(for: SharedStateKey.fileMaxUploadBytes.scoped(to: mine)) == "100")
    }

    @Test("logout removes the account's values and, for the current account, the unscoped ones")
    func clear() throws {
        let state = InMemorySharedState()
        try state.set("100", for: SharedStateKey.fileMaxUploadBytes.scoped(to: mine))
        try state.set("100", for: .fileMaxUploadBytes)
        try state.clearAccountValues(of: mine)
        #expect(try state.value(for: SharedStateKey.fileMaxUploadBytes.scoped(to: mine)) == nil)
        try state.clearUnscopedValues()
        #expect(try state.value(for: .fileMaxUploadBytes) == nil)
    }
}
