import Foundation
import ShareKitCore

/// A manual page (roff, `man 7 man`) made from the same help texts the
/// programs print, so `contrib/man/*.1` cannot say something else than
/// `--help`. Each program prints its page (`share manpage`, `share-daemon
/// --manpage`, `share-server manpage`); `tools/cli-docs` writes them into
/// `contrib/man`, and a test checks the files there are current.
public struct ManualPage: Sendable {
    /// The program's name (`share`).
    public let program: String
    /// One line: what the program is for.
    public let summary: String
    /// Sections in order: a title (`DESCRIPTION`, `SHARE SEND`) and the help text shown under it.
    public let sections: [(title: String, text: String)]

    /// - Parameters:
    ///   - program: the program's name.
    ///   - summary: what it is for, one line.
    ///   - sections: titles with the help text under each.
    public init(program: String, summary: String, sections: [(title: String, text: String)]) {
        self.program = program
        self.summary = summary
        self.sections = sections
    }

    /// The page of a program made of subcommands: its help, then each
    /// command's own help under the command's name. Always in English: the
    /// pages the repository ships are made from it (`tools/cli-docs`).
    /// - Parameter table: the program's command table.
    public init(table: CommandTable) {
        let (summary, sections) = Language.withLanguage(.english) {
            (
                table.summary,
                [("DESCRIPTION", table.help)]
                    + table.commands.map { ("\(table.program) \($0.name)".uppercased(), $0.help) }
            )
        }
        self.init(program: table.program, summary: summary, sections: sections)
    }

    /// The page in roff, section 1, dated by the version rather than a day
    /// so that the same sources always give the same page.
    public var roff: String {
        var text = """
            .\\" Generated from the programs' help texts; do not edit.
            .TH \(Self.escape(program.uppercased())) 1 "" "ShareKit \(ShareKitVersion.current)" "ShareKit"
            .SH NAME
            \(Self.escape(program)) \\- \(Self.escape(summary))

            """
        for section in sections {
            text += ".SH \"\(Self.escape(section.title))\"\n.nf\n"
            for line in section.text.split(separator: "\n", omittingEmptySubsequences: false) {
                text += Self.line(String(line)) + "\n"
            }
            text += ".fi\n"
        }
        return text
    }

    /// One line of preformatted text, safe for roff.
    static func line(_ line: String) -> String {
        let escaped = escape(line)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// Backslashes and dashes as roff wants them.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
    }
}
