public import ShareKitDPoP

/// An HTTP/1.1 request as bytes.
public enum HTTPRequest {
    /// `method path HTTP/1.1`, `Host`, the given headers, `Content-Length` and the body.
    public static func bytes(method: String, path: String, host: String, headers: [(String, String)], body: [UInt8])
        -> [UInt8]
    {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.count)\r\n\r\n"
        return Array(text.utf8) + body
    }
}

/// The createMessage requests of one connection, made before the measured
/// window: each with its own `client_msg_id` and a fresh DPoP proof (new
/// `jti`, `ath` of the session's access token), stored back to back in one
/// buffer so that sending one costs a slice and a `write`.
public struct RequestPool {
    private var bytes: [UInt8] = []
    private var offsets: [Int] = [0]

    /// How many requests the pool holds.
    public var count: Int { offsets.count - 1 }
    /// Their total size in bytes.
    public var byteCount: Int { bytes.count }

    /// Makes `count` requests.
    /// - Parameters:
    ///   - signer: the connection's key.
    ///   - accessToken: its session's access token.
    ///   - origin: `http://127.0.0.1:PORT`, for `htu`.
    ///   - path: the createMessage path.
    ///   - tag: a prefix that makes the `client_msg_id`s unique in the run.
    /// - Throws: a ``ShareKitDPoPInterface/DPoPError`` when a proof cannot be made.
    public init(count: Int, signer: ES256ProofSigner, accessToken: String, origin: String, path: String, tag: String)
        throws
    {
        let host = String(origin.dropFirst("http://".count))
        let url = origin + path
        bytes.reserveCapacity(count * 1200)
        offsets.reserveCapacity(count + 1)
        for index in 0..<count {
            let proof = try signer.makeProof(method: "POST", url: url, accessToken: accessToken, nonce: nil)
            let body =
                #"{"client_msg_id":"\#(tag)-\#(index)","text":"benchmark message \#(index) of \#(tag)","attachments":[]}"#
            bytes += HTTPRequest.bytes(
                method: "POST", path: path, host: host,
                headers: [
                    ("Authorization", "DPoP \(accessToken)"), ("DPoP", proof), ("Content-Type", "application/json"),
                ],
                body: Array(body.utf8))
            offsets.append(bytes.count)
        }
    }

    /// Calls `body` with the bytes of request `index`.
    public func withRequest<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
    {
        try bytes.withUnsafeBytes { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[offsets[index]..<offsets[index + 1]]))
        }
    }
}
