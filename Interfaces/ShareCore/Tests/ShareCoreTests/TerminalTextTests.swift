import ShareKitCore
import Testing

@Suite("terminal text")
struct TerminalTextTests {
    @Test(
        "control, format and separator characters are escaped; everything printable is kept",
        arguments: [
            ("plain ascii: 1-2_3", "plain ascii: 1-2_3"),
            ("café, 東京, 🙂", "café, 東京, 🙂"),
            ("\u{1B}[2Jcleared", #"\u{1B}[2Jcleared"#),
            ("title\u{1B}]0;pwned\u{07}", #"title\u{1B}]0;pwned\u{07}"#),
            ("two\nlines\r", #"two\nlines\r"#),
            ("nul\u{0}", #"nul\0"#),
            ("c1 \u{9B}31m", #"c1 \u{009B}31m"#),
            ("del\u{7F}", #"del\u{7F}"#),
            ("evil\u{202E}txt.exe", #"evil\u{202E}txt.exe"#),
            ("zero\u{200B}width", #"zero\u{200B}width"#),
            ("separator\u{2028}", #"separator\u{2028}"#),
        ])
    func neutralised(input: String, expected: String) {
        #expect(TerminalText.neutralised(input) == expected)
    }

    @Test("notification bodies: markup shows as the characters typed, controls escaped")
    func notificationMarkup() {
        #expect(
            TerminalText.notificationMarkup(#"<a href="https://evil.example">click</a> & <b>bold</b>"#)
                == "&lt;a href=&quot;https://evil.example&quot;&gt;click&lt;/a&gt; &amp; &lt;b&gt;bold&lt;/b&gt;")
        #expect(TerminalText.notificationMarkup("it's\u{1B}[2J") == "it&#39;s\\u{1B}[2J")
        #expect(TerminalText.notificationMarkup("plain text") == "plain text")
    }
}
