import ShareKitAppSupport
import ShareKitCore
import ShareKitSystemTesting
import Testing

@testable import ShareKitCLIKit

/// The picker's model without a terminal: keys in, state out.
@Suite("picker state")
struct PickerStateTests {
    static let thread = ShareTarget(kind: .thread, id: "t1", displayPath: "server > Gateway > resume the gateway")
    static let channel = ShareTarget(kind: .channel, id: "c1", displayPath: "server > Gateway")

    func type(_ text: String, into state: inout PickerState) -> [PickerState.Effect] {
        text.compactMap { state.handle(.character($0)) }
    }

    @Test("an answer to an older query is dropped; the newest one is shown")
    func staleAnswersDropped() {
        var state = PickerState(preview: "", comment: "", recents: [Self.channel])
        _ = state.handle(.tab)
        let effects = type("gat", into: &state)
        #expect(effects.count == 3)
        guard case .search(let query, let newest) = effects.last else {
            Issue.record("no search")
            return
        }
        #expect(query == "gat")
        state.receive(.success([Self.channel]), generation: newest - 1)
        #expect(state.results == nil)
        state.receive(.success([Self.thread]), generation: newest)
        #expect(state.listed == [Self.thread])
    }

    @Test("Send without a target only shows a hint; choosing a row enables it; Esc cancels")
    func sendNeedsTarget() {
        var state = PickerState(preview: "", comment: "c", recents: [Self.thread])
        state.focus = .send
        _ = state.handle(.enter)
        #expect(state.outcome == nil && state.hint == PickerState.chooseFirst)
        state.focus = .list(0)
        _ = state.handle(.enter)
        #expect(state.chosen == Self.thread && state.focus == .send)
        _ = state.handle(.enter)
        #expect(state.outcome == .send(Self.thread, comment: "c"))
        var other = PickerState(preview: "", comment: "", recents: [])
        _ = other.handle(.escape)
        #expect(other.outcome == .cancel)
    }

    @Test("a failing search empties the list and says why; clearing the query shows the recent targets again")
    func failureAndClear() {
        var state = PickerState(preview: "", comment: "", recents: [Self.channel])
        _ = state.handle(.tab)
        guard case .search(_, let generation) = state.handle(.character("x")) else {
            Issue.record("no search")
            return
        }
        state.receive(.failure(ProgramError("no network")), generation: generation)
        #expect(state.listed.isEmpty && state.searchError == "no network")
        #expect(state.handle(.backspace) == nil)
        #expect(state.listed == [Self.channel])
    }

    @Test("keys: a lone ESC, arrows, Shift-Tab, Ctrl-C, Enter and UTF-8 text")
    func keyParsing() {
        #expect(Key.parse([0x1B]) == [.escape])
        #expect(
            Key.parse(Array("\u{1B}[A\u{1B}[B\u{1B}[Z\u{03}\r".utf8)) == [.up, .down, .backTab, .interrupt, .enter])
        #expect(Key.parse(Array("é\u{7F}".utf8)) == [.character("é"), .backspace])
    }
}
