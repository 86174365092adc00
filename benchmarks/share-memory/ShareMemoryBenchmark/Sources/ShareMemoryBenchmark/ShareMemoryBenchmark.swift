import BenchmarkSupport
import Foundation
import Glibc
import SQLInterface
import SQLiteStore

/// Measures the peak RSS of the built `share send FILE --to thread:t1`
/// process (the claim: "a 2 GiB file is shared with flat memory") for each
/// size, against the same send of a 1 MiB file in the same run, and checks
/// on the server that each message arrived with an attachment of the
/// file's size.
struct ShareMemoryBenchmark {
    static let referenceMiB = 1
    /// At most this much more peak RSS for the largest file than for the
    /// smallest non-reference one (as `upload-memory/`).
    static let goalGrowthMiB = 4.0
    /// Free space a share of N bytes needs: the inbox's copy, the server's
    /// parts, and room to spare (the source file is sparse).
    static let spaceFactor: Int64 = 3
    static let partSize = 8 << 20

    let options: Options

    /// One `share send`'s figures.
    struct Measurement {
        let sizeMiB: Int
        let seconds: Double
        let peakKiB: Int
    }

    func run() throws {
        let bin =
            try options.binDirectory ?? ShareServer.buildRelease(products: ["share-server", "share-daemon", "share"])
        let directory = try RunDirectory.make(parent: options.temporaryParent, prefix: "share-memory-benchmark")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/server", withIntermediateDirectories: false)
        let seed: [String: Any] = [
            "users": [["username": "alex", "password": "alex-bench-pass"]],
            "spaces": [
                [
                    "id": "s1", "name": "server",
                    "channels": [
                        ["id": "c1", "name": "Gateway", "kind": "chat", "readers": ["alex"], "writers": ["alex"]]
                    ],
                ]
            ],
            "threads": [["id": "t1", "channel_id": "c1", "title": "resume the gateway"]],
            "limits": ["file_max_upload_bytes": 3 << 30, "upload_part_size": Self.partSize],
            "accepted_content_types": ["application/octet-stream", "text/plain"],
            "tokens": ["access_ttl_seconds": 3600],
        ]
        let server = try ShareServer(
            executable: bin + "/share-server", seed: seed, directory: directory + "/server", quiet: true)
        defer { server.stop() }
        say("share-server \(bin)/share-server (pid \(server.pid)) on \(server.origin); run directory \(directory)")
        // The child session for `share` and the server's limits come with the first daemon pass.
        let (client, _) = try ShareClient.loggedIn(
            binDirectory: bin, home: directory + "/client", server: server, user: "alex", password: "alex-bench-pass")

        var measurements: [Measurement] = []
        for sizeMiB in [Self.referenceMiB] + options.sizesMiB {
            let needed = Self.spaceFactor * Int64(sizeMiB) << 20
            let free = Self.freeBytes(directory)
            guard free >= needed else {
                say(
                    String(
                        format: "%5d MiB: SKIPPED: %.1f GiB free in %@, the share needs %.1f GiB "
                            + "(the inbox's copy and the server's stored parts); use --tmp DIR",
                        sizeMiB, Double(free) / Double(1 << 30), directory, Double(needed) / Double(1 << 30)))
                continue
            }
            measurements.append(try measure(sizeMiB, client: client, server: server, directory: directory))
        }
        report(measurements)
    }

    /// Shares one sparse file of `sizeMiB` with `share send`, checks the
    /// server's copy and removes it and the file again.
    private func measure(_ sizeMiB: Int, client: ShareClient, server: ShareServer, directory: String) throws
        -> Measurement
    {
        let path = directory + "/share-\(sizeMiB)MiB.bin"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0, ftruncate(descriptor, off_t(sizeMiB) << 20) == 0 else {
            throw Spawn.Failure(description: "cannot make \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        defer { unlink(path) }
        let result = try client.run("share", ["send", path, "--to", "thread:t1", "--json", "--progress", "off"])
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        guard result.status == 0, object["status"] as? String == "sent", let messageID = object["message_id"] as? String
        else {
            throw Spawn.Failure(
                description:
                    "share send of \(sizeMiB) MiB exited with \(result.status): \(result.stdout)\(result.stderr)\n"
                    + server.logTail())
        }
        try verifyAndRemove(messageID: messageID, bytes: Int64(sizeMiB) << 20, server: server)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: client.inboxPath))?.filter {
            !$0.hasPrefix(".")
        }
        guard left?.isEmpty ?? true else {
            throw Spawn.Failure(description: "the share inbox still holds \(left ?? []) after a sent share")
        }
        let peakKiB = result.usage.ru_maxrss
        say(
            String(
                format: "%5d MiB: %7.2f s  %7.1f MiB/s  peak RSS of share %6.1f MiB  message %@ holds %lld bytes",
                sizeMiB, result.seconds, Double(sizeMiB) / result.seconds, Double(peakKiB) / 1024, messageID,
                Int64(sizeMiB) << 20))
        return Measurement(sizeMiB: sizeMiB, seconds: result.seconds, peakKiB: peakKiB)
    }

    /// Checks that the message has one complete attachment of `bytes` whose
    /// parts on the server's disk add up to it, then deletes those parts
    /// (the disk holds one stored copy at a time).
    private func verifyAndRemove(messageID: String, bytes: Int64, server: ShareServer) throws {
        let database = try SQLiteDatabase(path: server.directory + "/server.sqlite")
        defer { try? database.close() }
        let rows = try database.query(
            "SELECT u.id AS id, u.size AS size, u.state AS state FROM message_attachments a "
                + "JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = ?", [.text(messageID)])
        guard rows.count == 1, let row = rows.first else {
            throw Spawn.Failure(description: "message \(messageID) has \(rows.count) attachments on the server, not 1")
        }
        let uploadID: String = try row.get("id")
        let size: Int64 = try row.get("size")
        let state: String = try row.get("state")
        let stored = server.directory + "/server.sqlite.uploads/" + uploadID
        var onDisk: Int64 = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: stored)) ?? [] {
            let attributes = try FileManager.default.attributesOfItem(atPath: stored + "/" + name)
            onDisk += (attributes[.size] as? NSNumber)?.int64Value ?? 0
        }
        guard size == bytes, state == "complete", onDisk == bytes else {
            throw Spawn.Failure(
                description: "message \(messageID): upload \(uploadID) is \(state) with \(size) bytes "
                    + "(\(onDisk) on disk); the file has \(bytes)")
        }
        try FileManager.default.removeItem(atPath: stored)
    }

    private func report(_ measurements: [Measurement]) {
        guard let reference = measurements.first(where: { $0.sizeMiB == Self.referenceMiB }) else { return }
        let referenceMiB = Double(reference.peakKiB) / 1024
        for measurement in measurements where measurement.sizeMiB != Self.referenceMiB {
            say(
                String(
                    format: "peak RSS %d MiB / %d MiB reference: %.2f", measurement.sizeMiB, Self.referenceMiB,
                    Double(measurement.peakKiB) / 1024 / referenceMiB))
        }
        let others = measurements.filter { $0.sizeMiB != Self.referenceMiB }
        guard let smallest = others.min(by: { $0.sizeMiB < $1.sizeMiB }),
            let largest = others.max(by: { $0.sizeMiB < $1.sizeMiB }), largest.sizeMiB != smallest.sizeMiB
        else { return }
        let growthMiB = Double(largest.peakKiB - smallest.peakKiB) / 1024
        let pass = growthMiB <= Self.goalGrowthMiB
        say(
            String(
                format: "peak RSS %d MiB / %d MiB: %.3f (%+.1f MiB; goal ~1.0, at most %.0f MiB more): %@",
                largest.sizeMiB, smallest.sizeMiB, Double(largest.peakKiB) / Double(smallest.peakKiB), growthMiB,
                Self.goalGrowthMiB, pass ? "PASS" : "FAIL"))
    }

    /// Bytes free for this user on the file system of `path`.
    private static func freeBytes(_ path: String) -> Int64 {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return 0 }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    private func say(_ text: String) {
        print(text)
        fflush(nil)
    }
}
