import Foundation
import SystemTesting
import Testing

@testable import ShareCLIKit

/// What the desktop hands `share send --desktop`: a `text/uri-list` file is
/// the links it lists, anything else is left as it is.
@Suite("desktop hand-over")
struct DesktopHandoverTests {
    @Test("a text/uri-list (RFC 2483): CRLF or LF, comments skipped, every line a URI")
    func lists() {
        #expect(
            DesktopHandover.parse("# dragged\r\nhttps://example.com/a\r\nfile:///tmp/x%20y\r\n")
                == ["https://example.com/a", "file:///tmp/x%20y"])
        #expect(
            DesktopHandover.parse("https://example.com/a\nmailto:sam@example.com\n") == [
                "https://example.com/a", "mailto:sam@example.com",
            ])
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

    @Test("expanding: a list file becomes its URIs; option values, other files and URLs stay")
    func expanding() throws {
        let directory = try TemporaryDirectory(prefix: "desktop-handover")
        defer { directory.remove() }
        let list = directory.file("links")
        try Data("https://example.com/a\r\nhttps://example.com/b\r\n".utf8).write(to: URL(fileURLWithPath: list))
        let plain = directory.file("plain.txt")
        try Data("words\n".utf8).write(to: URL(fileURLWithPath: plain))
        #expect(
            DesktopHandover.expand(["--comment", list, list, "file://" + list, plain, "https://x.example", "--to", "t"])
                == [
                    "--comment", list, "https://example.com/a", "https://example.com/b", "https://example.com/a",
                    "https://example.com/b", plain, "https://x.example", "--to", "t",
                ])
        // A FIFO is never opened (it could block), a missing file is left for the send to report.
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(DesktopHandover.expand([fifo, directory.file("missing")]) == [fifo, directory.file("missing")])
    }
}
