import ShareKitCore
public import ShareKitHTTPInterface

/// Tells whether a server is a Matrix homeserver, as `share login` asks
/// before it logs in: `/.well-known/matrix/client` may name the homeserver's
/// base URL (a server name like `https://example.org` whose homeserver is
/// `https://matrix.example.org`), and the base URL must answer
/// `/_matrix/client/versions` with a list of spec versions.
public enum MatrixDiscovery {
    /// The homeserver's base URL when `origin` is (or names) a Matrix
    /// homeserver; nil for any other server (a ShareKit server answers both
    /// requests with 404).
    ///
    /// A well-known document is hostile input: a base URL is taken only when
    /// it is an `https` URL, or an `http` URL while the origin itself is
    /// `http` (a loopback test server): an `https` origin never hands the
    /// password to a plain-text server.
    /// - Parameters:
    ///   - origin: the server the person named.
    ///   - client: a plain HTTP client.
    ///   - timeouts: each request's limits.
    /// - Returns: the base URL, or nil.
    public static func homeserver(at origin: String, client: any HTTPClient, timeouts: HTTPTimeouts = HTTPTimeouts())
        async -> String?
    {
        let options = HTTPRequestOptions(timeouts: timeouts, maxResponseBodyBytes: 64 * 1024)
        var candidates: [String] = []
        if let answer = try? await client.send(
            HTTPClientRequest(url: origin + "/.well-known/matrix/client"), options: options),
            answer.isSuccess, let named = JSONValue(strictJSON: answer.body)?["m.homeserver"]?["base_url"]?.stringValue,
            let base = acceptedBaseURL(named, origin: origin)
        {
            candidates.append(base)
        }
        candidates.append(origin)
        for base in candidates {
            guard
                let answer = try? await client.send(
                    HTTPClientRequest(url: base + "/_matrix/client/versions"), options: options),
                answer.isSuccess, let versions = JSONValue(strictJSON: answer.body)?["versions"]?.arrayValue,
                versions.contains(where: { $0.stringValue?.hasPrefix("v1.") == true || $0.stringValue == "r0.6.1" })
            else { continue }
            return base
        }
        return nil
    }

    /// A well-known base URL, without a trailing slash, when it may be used.
    static func acceptedBaseURL(_ named: String, origin: String) -> String? {
        var base = named
        while base.hasSuffix("/") { base.removeLast() }
        guard base.count <= 2048, !base.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "?" || $0 == "#" })
        else { return nil }
        if base.hasPrefix("https://"), base.count > 8 { return base }
        if base.hasPrefix("http://"), base.count > 7, origin.hasPrefix("http://") { return base }
        return nil
    }
}
