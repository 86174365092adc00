import ShareKitCore

/// Draws a ``PickerState`` as one full frame of escape sequences and text:
/// the header with Cancel and Send, the preview, the comment, the chosen
/// target, the search field with the write-permission note, the list and a
/// status line. The focused place is shown in reverse video; Send is dim
/// while no target is chosen. Every line fits the width it is drawn for
/// (the picker redraws at the new size on SIGWINCH).
enum PickerScreen {
    static let escape = "\u{1B}["
    /// Starts every frame: cursor home, clear the screen.
    static let frameStart = escape + "H" + escape + "2J"
    static var note: String { t(.pickerNote) }

    /// The frame for `state` on a screen of `rows` by `columns`.
    static func frame(_ state: PickerState, rows: Int, columns: Int) -> String {
        var lines: [String] = []
        let cancelLabel = "[ " + t(.pickerCancel) + " ]"
        let sendLabel = "[ " + t(.pickerSend) + " ]"
        let cancel = styled(cancelLabel, focused: state.focus == .cancel)
        let send = styled(sendLabel, focused: state.focus == .send, dim: !state.canSend)
        let title = t(.pickerTitle)
        if columns >= cancelLabel.count + sendLabel.count + title.count + 2 {
            let gap = columns - cancelLabel.count - sendLabel.count - title.count
            lines.append(
                cancel + String(repeating: " ", count: gap / 2) + bold(title)
                    + String(repeating: " ", count: gap - gap / 2) + send)
        } else {
            // Too narrow for the buttons' row: Esc cancels, Enter on the list sends.
            lines.append(bold(fit(title, columns)))
        }
        lines.append(fit(state.preview, columns))
        lines.append("")
        lines.append(field(t(.pickerComment), state.comment, focused: state.focus == .comment, columns: columns))
        lines.append(fit(t(.pickerTo, ["target": state.chosen?.displayPath ?? t(.pickerNoTarget)]), columns))
        lines.append("")
        lines.append(field(t(.pickerSearch), state.query, focused: state.focus == .search, columns: columns))
        lines.append(dimmed(fit(note, columns)))
        lines.append(fit(heading(state), columns))

        let status = statusLine(state, columns: columns)
        let room = max(1, rows - lines.count - 2)
        let rowsShown = visibleRows(state, room: room)
        for row in rowsShown {
            let target = state.listed[row]
            let mark = target == state.chosen ? "* " : "  "
            lines.append(styled(fit(mark + target.displayPath, columns), focused: state.focus == .list(row)))
        }
        lines.append("")
        lines.append(status)
        return frameStart + lines.joined(separator: "\r\n")
    }

    private static func heading(_ state: PickerState) -> String {
        if !state.isSearching {
            return state.recents.isEmpty ? t(.pickerNoRecents) : t(.pickerRecents)
        }
        if state.results == nil { return t(.pickerSearching, ["query": state.query]) }
        if let error = state.searchError { return t(.pickerSearchFailed, ["error": error]) }
        return state.listed.isEmpty
            ? t(.pickerNoMatch, ["query": state.query]) : t(.pickerResults, ["query": state.query])
    }

    private static func statusLine(_ state: PickerState, columns: Int) -> String {
        if let hint = state.hint { return bold(fit(hint, columns)) }
        return dimmed(fit(t(.pickerKeys), columns))
    }

    /// The rows that fit, keeping the focused row on screen.
    private static func visibleRows(_ state: PickerState, room: Int) -> Range<Int> {
        let count = state.listed.count
        guard count > room else { return 0..<count }
        var start = 0
        if case .list(let row) = state.focus { start = max(0, min(row - room + 1, count - room)) }
        return start..<(start + room)
    }

    private static func field(_ label: String, _ value: String, focused: Bool, columns: Int) -> String {
        let shown = fit(value, max(1, columns - label.count - 4))
        return label + ": " + (focused ? reverse(shown + "_") : shown)
    }

    /// Every line passes here: names, titles and the person's own typing
    /// are neutralised before they are cut to the width, so nothing in them
    /// reaches the terminal as a control sequence (the screen's own styling
    /// is added around the fitted text).
    private static func fit(_ text: String, _ columns: Int) -> String {
        let safe = TerminalText.neutralised(text)
        return safe.count <= columns ? safe : String(safe.prefix(max(0, columns - 3))) + "..."
    }

    private static func styled(_ text: String, focused: Bool, dim: Bool = false) -> String {
        if focused { return reverse(dim ? dimmed(text) : text) }
        return dim ? dimmed(text) : text
    }

    private static func reverse(_ text: String) -> String { escape + "7m" + text + escape + "0m" }
    private static func bold(_ text: String) -> String { escape + "1m" + text + escape + "0m" }
    private static func dimmed(_ text: String) -> String { escape + "2m" + text + escape + "0m" }
}
