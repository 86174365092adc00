import ShareKitDPoP
import ShareKitDPoPInterface
import Testing

@Suite("htu canonical form (RFC 3986 6.2.2, 6.2.3)")
struct HTTPTargetURITests {
    @Test(
        "normalization rules",
        arguments: [
            // 6.2.2.1 case: scheme and host lowercase, hex digits of escapes uppercase
            ("HTTPS://Server.Example.COM/Token", "https://server.example.com/Token"),
            ("https://h.example/a%2fb%c3%a9", "https://h.example/a%2Fb%C3%A9"),
            // 6.2.2.2 escapes of unreserved characters decoded
            ("https://h.example/%7Euser/%41%2D%5F%2E", "https://h.example/~user/A-_."),
            ("https://H%41st.example/", "https://hast.example/"),
            // 6.2.2.3 dot segments
            ("https://h.example/a/./b/../c", "https://h.example/a/c"),
            ("https://h.example/a/%2E%2E/c", "https://h.example/c"),
            ("https://h.example/../../x", "https://h.example/x"),
            ("https://h.example/a/b/..", "https://h.example/a/"),
            ("https://h.example/a/.", "https://h.example/a/"),
            // 6.2.3 scheme-based: default port, empty port, empty path
            ("https://h.example:443/x", "https://h.example/x"),
            ("http://h.example:80/x", "http://h.example/x"),
            ("https://h.example:80/x", "https://h.example:80/x"),
            ("http://h.example:8080", "http://h.example:8080/"),
            ("https://h.example:/x", "https://h.example/x"),
            ("https://h.example:00443/x", "https://h.example/x"),
            ("https://h.example", "https://h.example/"),
            // no query, no fragment, no user information
            ("https://h.example/p?q=1&r=2#frag", "https://h.example/p"),
            ("https://h.example?q", "https://h.example/"),
            ("https://h.example#f", "https://h.example/"),
            ("https://user:pass@h.example/x", "https://h.example/x"),
            // characters a URI cannot hold are escaped as UTF-8
            ("https://h.example/a b", "https://h.example/a%20b"),
            ("https://h.example/é", "https://h.example/%C3%A9"),
            // IP literals
            ("https://[2001:DB8::1]:443/x", "https://[2001:db8::1]/x"),
            ("http://127.0.0.1:8080/x", "http://127.0.0.1:8080/x"),
            // sub-delimiters and ":" "@" stay in the path
            ("https://h.example/a;b=c,d/e:f@g", "https://h.example/a;b=c,d/e:f@g"),
        ])
    func rules(input: String, canonical: String) throws {
        let uri = try HTTPTargetURI(input)
        #expect(uri.canonical == canonical)
        // The canonical form is a fixed point.
        #expect(try HTTPTargetURI(canonical).canonical == canonical)
    }

    @Test(
        "unusable URLs are refused",
        arguments: [
            "", "ftp://h.example/", "https:/h.example/x", "//h.example/x", "https://", "https:///x",
            "https://h.example:99999/", "https://h.example:abc/", "https://h.example/%zz", "https://h.example/%4",
            "https://ho st.example/", "https://[::1/x", "https://[]/", "1https://h.example/", "javascript:alert(1)",
        ])
    func refused(input: String) {
        #expect(throws: DPoPError.self) { try HTTPTargetURI(input) }
    }

    @Test(
        "origins key the nonce cache",
        arguments: [
            ("https://API.example.com:443/a?b", "https://api.example.com"),
            ("http://api.example.com:8080/", "http://api.example.com:8080"),
            ("https://[::1]:8443/x", "https://[::1]:8443"),
        ])
    func origins(input: String, origin: String) throws {
        #expect(try HTTPTargetURI(input).origin == origin)
    }

    @Test("inputs longer than the bound are refused")
    func bounded() {
        #expect(throws: DPoPError.invalidURL("longer than 8192 bytes")) {
            try HTTPTargetURI("https://h.example/" + String(repeating: "a", count: 8192))
        }
    }

    // MARK: The comparison rules of real servers

    /// A server that compares `htu` as an exact string with the URL it is
    /// configured with accepts what clients make from any spelling of that URL.
    @Test(
        "exact string comparison against the server's configured URL",
        arguments: [
            "https://server.example.com/token", "HTTPS://SERVER.EXAMPLE.COM/token",
            "https://server.example.com:443/token",
            "https://server.example.com/token?x=1", "https://server.example.com/token#f",
            "https://server.example.com/./token", "https://server.example.com/a/../token",
        ])
    func exactString(clientURL: String) throws {
        #expect(try HTTPTargetURI(clientURL).canonical == "https://server.example.com/token")
    }

    /// `java.net.URI.equals` after `normalize()`: scheme and host
    /// case-insensitive, escapes compared case-insensitively, dot segments
    /// removed, everything else case-sensitive. Pairs it calls equal must
    /// have one canonical form; pairs it calls different must not.
    @Test(
        "java.net.URI equality",
        arguments: [
            ("HTTPS://H.example/x", "https://h.example/x", true),
            ("https://h.example/a%2fb", "https://h.example/a%2Fb", true),
            ("https://h.example/a/./b/../c", "https://h.example/a/c", true),
            ("https://h.example/x", "https://h.example/X", false),
            ("https://h.example/a%2Fb", "https://h.example/a/b", false),
            ("https://h.example/x", "http://h.example/x", false),
            ("https://h.example:8443/x", "https://h.example/x", false),
        ])
    func javaURIEquality(left: String, right: String, equal: Bool) throws {
        #expect((try HTTPTargetURI(left) == HTTPTargetURI(right)) == equal)
        #expect((try HTTPTargetURI(left).canonical == HTTPTargetURI(right).canonical) == equal)
    }

    /// WHATWG URL: `url.origin + url.pathname`, the values a browser-style
    /// server computes (as `new URL(input)` serializes them). For inputs
    /// without lowercase or unreserved escapes, which WHATWG keeps as typed,
    /// the canonical form is exactly that string.
    @Test(
        "WHATWG origin + pathname",
        arguments: [
            ("HTTPS://Example.COM:443/a/../b?q=1#f", "https://example.com/b"),
            ("http://example.com:8080", "http://example.com:8080/"),
            ("https://user:pw@example.com/x", "https://example.com/x"),
            ("https://example.com/a b/é", "https://example.com/a%20b/%C3%A9"),
            ("https://example.com/a/%2e%2E/c", "https://example.com/c"),
            ("http://example.com:80/", "http://example.com/"),
            ("https://[2001:db8::1]:443/x", "https://[2001:db8::1]/x"),
        ])
    func whatwgOriginAndPath(input: String, originAndPath: String) throws {
        #expect(try HTTPTargetURI(input).canonical == originAndPath)
    }

    /// Where the rules disagree the canonical form follows RFC 3986, as
    /// docs/protocol.md ("`htu` normalisation") prescribes: WHATWG keeps
    /// `%7e` and lowercase hex as typed.
    /// A client that sends its requests to the canonical URL avoids the case.
    @Test("documented difference from WHATWG: escapes are normalized")
    func whatwgDifference() throws {
        #expect(try HTTPTargetURI("https://example.com/%7e/%2f").canonical == "https://example.com/~/%2F")
    }
}
