import Foundation
import ShareKitAppSupport
import ShareKitSystemTesting
import Testing

@testable import ShareKitCLIKit

/// What the desktop hands `share send --desktop`: a `*.uri-list` file is
/// the links it lists (never a file it names), anything else is left as it
/// is, and nothing after `--desktop` is an option.
@Suite("desktop hand-over")
struct DesktopHandoverTests {
    @Test("a text/uri-list (RFC 2483): CRLF or LF, comments skipped, every line a URI")
    func lists() {
        #expect(
            DesktopHandover.parse("# dragged\r\nhttps://example.com/a\r\nhttps://example.com/x%20y\r\n")
                == .links(["https://example.com/a", "https://example.com/x%20y"]))
        #expect(
            DesktopHandover.parse("https://example.com/a\nmailto:sam@example.com\n")
                == .links(["https://example.com/a", "mailto:sam@example.com"]))
    }

    @Test(
        "a list that names a local file, in any spelling, says so",
        arguments: ["file:///home/a/.ssh/id_ed25519", "FILE://localhost/etc/passwd", "file:/etc/passwd", "file:x"])
    func namesLocalFile(line: String) {
        #expect(DesktopHandover.parse("https://example.com/a\n\(line)\n") == .namesLocalFile(line))
    }

    @Test(
        "anything else is no list: prose, a colon in a note, spaces, only comments, nothing",
        arguments: [
            "hello world\n", "todo: buy milk\n", "todo:buy\n", "https://example.com/a b\n", "# only a comment\n", "",
            "https://example.com/a\nand a line of words\n", "://example.com\n", "1http://example.com\n",
            "https://\n",
        ])
    func notLists(text: String) {
        #expect(DesktopHandover.parse(text) == nil)
    }

    @Test("only a *.uri-list name is a list; the content alone never makes one")
    func listNames() {
        #expect(DesktopHandover.isListName("/tmp/links.uri-list"))
        #expect(DesktopHandover.isListName("Dropped.URI-LIST"))
        for name in ["/tmp/cat.jpg", "/tmp/links", "/tmp/.uri-list", "/tmp/uri-list", "/tmp/a.uri-list.txt"] {
            #expect(!DesktopHandover.isListName(name), "\(name)")
        }
    }

    @Test("expanding: a list file becomes its links; a lookalike, other files and URLs stay; file: lines refuse")
    func expanding() throws {
        let directory = try TemporaryDirectory(prefix: "desktop-handover")
        defer { directory.remove() }
        let links = "https://example.com/a\r\nhttps://example.com/b\r\n"
        let list = directory.file("links.uri-list")
        try Data(links.utf8).write(to: URL(fileURLWithPath: list))
        let lookalike = directory.file("links.txt")
        try Data(links.utf8).write(to: URL(fileURLWithPath: lookalike))
        #expect(
            try DesktopHandover.expand([list, "file://" + list, lookalike, "https://x.example"]) == [
                "https://example.com/a", "https://example.com/b", "https://example.com/a", "https://example.com/b",
                lookalike, "https://x.example",
            ])
        let naming = directory.file("disguised.uri-list")
        try Data("https://example.com/a\nfile:///etc/passwd\n".utf8).write(to: URL(fileURLWithPath: naming))
        let refusal = #expect(throws: ProgramError.self) { try DesktopHandover.expand([list, naming]) }
        #expect(refusal?.exitCode == .rejected)
        #expect(refusal?.description.contains("file:///etc/passwd") == true)
        #expect(refusal?.description.contains(naming) == true)
        // A FIFO is never opened (it could block), a missing file is left for the send to report.
        let fifo = directory.file("fifo.uri-list")
        #expect(mkfifo(fifo, 0o600) == 0)
        let missing = directory.file("missing.uri-list")
        #expect(try DesktopHandover.expand([fifo, missing]) == [fifo, missing])
    }

    @Test("the command line splits at --desktop: what follows is items, even when it looks like an option")
    func splitting() {
        #expect(DesktopHandover.split(["--to", "thread:t1", "a.txt"]) == nil)
        #expect(DesktopHandover.split(["--comment", "--desktop", "a.txt"]) == nil, "a value is not the option")
        #expect(DesktopHandover.split(["--", "--desktop"]) == nil, "after -- it is a file")
        #expect(
            DesktopHandover.split(["--to", "thread:t1", "--desktop", "--server=http://evil.example", "-", "--help"])
                == DesktopHandover.Arguments(
                    options: ["--to", "thread:t1"], items: ["--server=http://evil.example", "-", "--help"]))
        #expect(DesktopHandover.positional("--queue") == "./--queue")
        #expect(DesktopHandover.positional("-") == "./-")
        #expect(DesktopHandover.positional("https://example.com/-") == "https://example.com/-")
    }
}
