import BenchmarkSupport

/// The benchmark's `share-server`: its seed (one user, 3 GiB
/// `file_max_upload_bytes`, 8 MiB parts, `application/octet-stream`
/// accepted, access tokens valid for an hour); ``ShareServer`` starts it on
/// 127.0.0.1:0 with its database and request log in the given directory.
enum ServerProcess {
    static let username = "bench"
    static let password = "bench-password"
    static let partSize = 8 << 20

    /// Starts the server and waits for its `listening on` line.
    /// - Parameters:
    ///   - executable: the share-server binary.
    ///   - directory: an existing directory of the run (the caller removes it).
    ///   - quiet: whether to pass `--quiet`.
    /// - Returns: the running server.
    static func start(executable: String, directory: String, quiet: Bool) throws -> ShareServer {
        let seed: [String: Any] = [
            "users": [["username": username, "password": password]],
            "limits": ["file_max_upload_bytes": 3 << 30, "upload_part_size": partSize],
            "accepted_content_types": ["application/octet-stream", "text/plain"],
            "tokens": ["access_ttl_seconds": 3600],
        ]
        return try ShareServer(executable: executable, seed: seed, directory: directory, quiet: quiet)
    }
}
