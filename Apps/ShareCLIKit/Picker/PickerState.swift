import Foundation
import ShareKitAppSupport
import ShareKitCore

/// What the picker shows and where the person is in it, and how keys and
/// search answers change it. No I/O: ``TargetPicker`` feeds it keys and
/// answers and draws it with ``PickerScreen``.
struct PickerState: Sendable {
    /// Where the keys go.
    enum Focus: Hashable, Sendable {
        case cancel, send, comment, search
        /// A row of the list (recent targets, or search results).
        case list(Int)
    }

    /// How the picker ended.
    enum Outcome: Equatable, Sendable {
        case send(ShareTarget, comment: String)
        case cancel
    }

    /// What the picker asks its runner to do after a key.
    enum Effect: Equatable, Sendable {
        /// Search for `query` (after the debounce); answers carry `generation`.
        case search(query: String, generation: Int)
    }

    /// The first item: name, type, size.
    var preview: String
    var comment: String
    var query = ""
    var recents: [ShareTarget]
    /// The answer for the current query; nil while it is on its way.
    var results: [ShareTarget]?
    var searchError: String?
    var chosen: ShareTarget?
    var focus: Focus = .comment
    /// A short line about the last key that did nothing else (Send without a target).
    var hint: String?
    /// Counts queries so that an answer to an older one is recognised and dropped.
    private(set) var generation = 0
    private(set) var outcome: Outcome?

    init(preview: String, comment: String, recents: [ShareTarget]) {
        self.preview = preview
        self.comment = comment
        self.recents = recents
    }

    /// Whether the search field holds a query (the list then shows results).
    var isSearching: Bool { !query.trimmingCharacters(in: .whitespaces).isEmpty }

    /// The rows of the list.
    var listed: [ShareTarget] { isSearching ? results ?? [] : recents }

    /// Whether Send does something.
    var canSend: Bool { chosen != nil }

    /// The hint shown when Send is pressed without a target.
    static var chooseFirst: String { t(.pickerChooseFirst) }

    /// Applies a key.
    /// - Returns: a search to start, when the query changed.
    mutating func handle(_ key: Key) -> Effect? {
        hint = nil
        switch key {
        case .escape, .interrupt:
            outcome = .cancel
        case .tab: focus = nextGroup(forward: true)
        case .backTab: focus = nextGroup(forward: false)
        case .down: focus = step(1)
        case .up: focus = step(-1)
        case .left where focus == .send: focus = .cancel
        case .right where focus == .cancel: focus = .send
        case .enter: return enter()
        case .backspace:
            if focus == .comment {
                if !comment.isEmpty { comment.removeLast() }
            } else {
                return editQuery { if !$0.isEmpty { $0.removeLast() } }
            }
        case .character(let character):
            if focus == .comment {
                comment.append(character)
            } else {
                focus = .search
                return editQuery { $0.append(character) }
            }
        case .left, .right, .other: break
        }
        return nil
    }

    /// Takes the answer to the query numbered `generation`; older answers
    /// are dropped. A failure's message is the status line.
    mutating func receive(_ answer: Result<[ShareTarget], ProgramError>, generation: Int) {
        guard generation == self.generation else { return }
        switch answer {
        case .success(let targets):
            results = targets
            searchError = nil
        case .failure(let failure):
            results = []
            searchError = failure.description
        }
        clampFocus()
    }

    private mutating func enter() -> Effect? {
        switch focus {
        case .cancel: outcome = .cancel
        case .send:
            if let chosen { outcome = .send(chosen, comment: comment) } else { hint = Self.chooseFirst }
        case .comment: focus = .search
        case .search: if !listed.isEmpty { focus = .list(0) }
        case .list(let row):
            guard listed.indices.contains(row) else { return nil }
            chosen = listed[row]
            focus = .send
        }
        return nil
    }

    private mutating func editQuery(_ edit: (inout String) -> Void) -> Effect? {
        let before = query
        edit(&query)
        guard query != before else { return nil }
        generation += 1
        results = nil
        searchError = nil
        return isSearching ? .search(query: query, generation: generation) : nil
    }

    /// The places in arrow-key order: the buttons, the fields, then each row.
    private var order: [Focus] { [.cancel, .send, .comment, .search] + listed.indices.map { .list($0) } }

    private func step(_ delta: Int) -> Focus {
        let places = order
        guard let index = places.firstIndex(of: focus) else { return .search }
        return places[max(0, min(places.count - 1, index + delta))]
    }

    /// Tab order: comment, search, the list, Send, Cancel.
    private func nextGroup(forward: Bool) -> Focus {
        var groups: [Focus] = [.comment, .search]
        if !listed.isEmpty { groups.append(.list(0)) }
        groups += [.send, .cancel]
        let current: Focus
        if case .list = focus { current = .list(0) } else { current = focus }
        let index = groups.firstIndex(of: current) ?? 0
        return groups[(index + (forward ? 1 : groups.count - 1)) % groups.count]
    }

    private mutating func clampFocus() {
        if case .list(let row) = focus, !listed.indices.contains(row) {
            focus = listed.isEmpty ? .search : .list(listed.count - 1)
        }
    }
}
