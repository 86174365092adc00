/// Text from elsewhere (a server, a socket, a file) made safe to print on
/// a terminal. Such text may carry escape sequences that move the cursor,
/// rewrite earlier lines, change the window title or, on some terminals,
/// answer with input; bidirectional overrides and zero-width characters can
/// make one id look like another. Each such character is written as its
/// Swift escape (`\u{1B}`), so a person still sees that something was there.
public enum TerminalText {
    /// The text with every control character (C0, DEL, C1), format
    /// character (bidirectional controls, zero-width characters) and line
    /// or paragraph separator escaped; everything else, including letters
    /// of any script and emoji, is kept.
    /// - Parameter text: the untrusted text.
    /// - Returns: text that only prints, on one line.
    public static func neutralised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += scalar.escaped(asASCII: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text for the body of a desktop notification: neutralised as for
    /// a terminal, then with `&`, `<`, `>`, `"` and `'` written as entities,
    /// because a notification server may render the body's markup subset
    /// (`<b>`, `<i>`, `<u>`, `<a href>`, `<img>`): another user's text must
    /// show as the characters they typed, never as a link or an image.
    /// - Parameter text: the untrusted text.
    /// - Returns: text that shows as written.
    public static func notificationMarkup(_ text: String) -> String {
        htmlEscaped(neutralised(text))
    }

    /// Text for HTML element content or a quoted attribute value: `&`, `<`,
    /// `>`, `"` and `'` as character references, everything else kept (the
    /// notification body's markup, the reference server's web pages).
    /// - Parameter text: the untrusted text.
    /// - Returns: text that shows as written.
    public static func htmlEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        default:
            return false
        }
    }
}
