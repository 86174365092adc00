import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// The `share-server` command line: clear errors and exit codes, an
/// idempotent seed, a graceful stop.
@Suite("share-server command line")
struct ServerCommandLineTests {
    func server(_ arguments: [String]) throws -> ProcessResult {
        try runProcess(BuiltProducts.path("share-server"), arguments)
    }

    @Test(
        "usage errors exit 2 and say what to change",
        arguments: [
            (["--listen", "nowhere", "--db", "/tmp/x.db", "--seed", "demo"], "--listen must be HOST:PORT"),
            (["--listen", "127.0.0.1:0", "--seed", "demo"], "--db is required"),
            (["--listen", "127.0.0.1:0", "--db", "/tmp/x.db", "--seed", "demo", "--tls-cert", "c.pem"], "go together"),
            (["--listen", "127.0.0.1:0", "--db", "/tmp/x.db", "--seed", "demo", "--bogus"], "unknown option --bogus"),
            (
                [
                    "--listen", "127.0.0.1:0", "--db", "/tmp/x.db", "--seed", "demo", "--public-origin",
                    "https://x/chat",
                ],
                "--public-origin must be http:// or https:// with a host"
            ),
            (
                ["--listen", "127.0.0.1:0", "--db", "/tmp/x.db", "--seed", "demo", "--public-origin", "ftp://x"],
                "--public-origin must be http:// or https:// with a host"
            ),
            (
                ["--listen", "127.0.0.1:0", "--db", "/tmp/x.db", "--seed", "demo", "--public-origin", "https://x?a=b"],
                "--public-origin must be http:// or https:// with a host"
            ),
            (
                [
                    "--listen", "127.0.0.1:0", "--db", "/tmp/x.db", "--seed", "demo", "--public-origin",
                    "https://ü.example",
                ],
                "--public-origin must be http:// or https:// with a host"
            ),
            (
                ["--listen", "127.0.0.1:0", "--db", "postgresql://share@/sharekit?host=/tmp", "--seed", "demo"],
                "--uploads DIR is needed with a PostgreSQL --db"
            ),
        ])
    func usage(arguments: [String], message: String) throws {
        let result = try server(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "a PostgreSQL database that cannot be reached: exit 1 naming it and libpq's reason, the password never shown",
        arguments: ["postgresql", "postgres"])
    func unreachablePostgres(scheme: String) throws {
        let directory = try TemporaryDirectory(prefix: "pg-unreachable")
        defer { directory.remove() }
        // A socket directory where no server listens: libpq fails at once.
        let uri = "\(scheme)://share:hunter2-user@/sharekit?host=\(directory.path)&password=hunter3-param"
        let served = try server([
            "--listen", "127.0.0.1:0", "--db", uri, "--uploads", directory.file("uploads"), "--seed", "demo",
        ])
        let admin = try server(["admin", "revoke-session", "--db", uri, "--session", "s1"])
        for result in [served, admin] {
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.contains(
                    "cannot use the PostgreSQL database \(scheme)://share:***@/sharekit?host=\(directory.path)&password=***"
                ),
                "\(result.stderr)")
            #expect(result.stderr.contains(".s.PGSQL.5432"), "libpq's reason names the socket: \(result.stderr)")
            #expect(!result.stderr.contains("hunter2") && !result.stderr.contains("hunter3"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: uri), "a URI is never taken for a SQLite path")
    }

    @Test("a seed file with a wrong member fails with a message naming it, exit 1")
    func badSeed() throws {
        let directory = try TemporaryDirectory(prefix: "bad-seed")
        defer { directory.remove() }
        let cases: [(String, String)] = [
            ("{\"users\": [{\"username\": \"alex\"}]}", "seed.users[0].password is missing"),
            (
                "{\"users\": [], \"limits\": {\"upload_part_size\": \"big\"}}",
                "seed.limits.upload_part_size must be an integer"
            ),
            (
                "{\"users\": [], \"threads\": [{\"id\": \"t\", \"channel_id\": \"nope\", \"title\": \"x\"}]}",
                "unknown channel nope"
            ),
            ("not json", "not valid JSON"),
        ]
        for (text, message) in cases {
            let path = directory.file("seed.json")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let result = try server(["--listen", "127.0.0.1:0", "--db", directory.file("s.db"), "--seed", path])
            #expect(result.status == 1, "\(text)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }

    @Test(
        "restarting on the same database loads the seed again without duplicates; data survives",
        arguments: ServerEngine.allCases)
    func idempotentSeed(engine: ServerEngine) async throws {
        let directory = try TemporaryDirectory(prefix: "reseed")
        let first = try await ServerProcess.start(engine, directory: directory)
        let alex = try TestClient(origin: first.origin)
        try await alex.login("alex", "alex-demo-pass")
        let before = try await alex.send("GET", "/api/v1/spaces")
        #expect(first.stop(removeFiles: false) == 0)

        let second = try await ServerProcess.start(engine, directory: directory)
        defer { second.stop() }
        let again = try TestClient(origin: second.origin)
        #expect(try await again.login("alex", "alex-demo-pass").status == 201)
        let after = try await again.send("GET", "/api/v1/spaces")
        #expect(after.text == before.text)
        let threads = try await again.send("GET", "/api/v1/threads/search?q=")
        #expect(threads.array.count == Set(threads.array.compactMap { $0["id"] as? String }).count)
    }

    @Test("routes --json lists every operation once")
    func routes() throws {
        let result = try server(["routes", "--json"])
        #expect(result.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        let ids = list.compactMap { $0["operation_id"] }
        #expect(Set(ids).count == ids.count)
        for id in ["login", "refreshToken", "createExtensionSession", "createMessage", "uploadPart", "listEvents"] {
            #expect(ids.contains(id))
        }
    }

    @Test("SIGTERM sent the moment `listening on` appears stops the server, every time (40 starts)")
    func stopRightAfterStart() async throws {
        // The stop used to be lost about once in 40 starts on a loaded
        // machine: the handler was set up after the line, in two steps.
        for round in 0..<40 {
            // Off the cooperative pool (see offPool): 40 starts hold a
            // thread for seconds, and the tests beside this one need it.
            let (status, log) = try await offPool {
                let server = try ServerProcess(engine: .sqlite)
                let status = server.stop(removeFiles: false)
                let log = server.log
                server.directory.remove()
                return (status, log)
            }
            #expect(status == 0, "round \(round): status \(status) (137: the SIGTERM was ignored); \(log)")
            if status != 0 { break }
        }
    }
}
