import Foundation
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

/// What one createMessage costs share-server in messages to PostgreSQL,
/// counted on the wire between the two (``PostgresWireCounter``): each
/// round trip is a wake-up of a PostgreSQL backend and of the server's
/// thread, and on two cores their CPU is what bounds the requests a
/// deployment answers (docs/adr/0044-fewer-round-trips-on-postgresql.md).
@Suite("reference server: round trips to PostgreSQL")
struct PostgresRoundTripTests {
    @Test(
        "createMessage costs at most 5 round trips to PostgreSQL (BEGIN and savepoints ride in its statements' pipelines)"
    )
    func createMessageRoundTrips() async throws {
        guard ServerEngine.selected.contains(.postgresql) else {
            try Test.cancel("skipped: postgresql is not in SHAREKIT_TEST_ENGINES")
        }
        let postgres: TemporaryPostgres
        let name: String
        do {
            postgres = try TemporaryPostgres.shared()
            name = try postgres.createDatabase()
        } catch let unavailable as TemporaryPostgres.Unavailable {
            try Test.cancel("skipped on PostgreSQL: \(unavailable)")
        }
        let relay = try PostgresWireCounter(to: postgres)
        let uploads = try TemporaryDirectory(prefix: "uploads")
        defer {
            relay.stop()
            uploads.remove()
            try? postgres.dropDatabase(name)
        }
        let server = try ServerProcess(
            engine: .postgresql, seed: UploadFlow.seed(), extraArguments: ["--uploads", uploads.path],
            database: relay.relayedURI(postgres.connectionURI(database: name), postgres: postgres))
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        // The first messages prepare the statements.
        for _ in 0..<3 {
            #expect(try await UploadFlow.message(alex, "/api/v1/threads/t1/messages").status == 201)
        }
        var costs: [Int] = []
        var seen: [[String]] = []
        for _ in 0..<15 {
            let before = relay.roundTrips
            #expect(try await UploadFlow.message(alex, "/api/v1/threads/t1/messages").status == 201)
            // Expired `jti` and idempotency records are swept once a second
            // each, in round trips of their own: on a loaded machine most
            // requests take one, so they are not counted.
            let trips = relay.statements(from: before).filter { texts in
                !texts.contains { $0.hasPrefix("DELETE FROM dpop_jti") || $0.hasPrefix("DELETE FROM idempotency") }
            }
            costs.append(trips.count)
            seen = trips
        }
        let median = costs.sorted()[costs.count / 2]
        // The session read; the jti insert that also reads the thread's
        // access (BEGIN in its pipeline); the client_msg_id claim; the
        // message insert that also finds the push recipients (each write
        // with its statement savepoint in its pipeline); COMMIT. With BEGIN
        // and each savepoint in a message of its own, and the access and
        // recipients read alone, it took 10.
        #expect(median <= 5, "round trips per createMessage: \(costs); the last one's: \(seen)")
        #expect(median >= 5, "the relay saw too few messages to be counting them: \(costs)")
    }
}
