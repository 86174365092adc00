import BenchmarkSupport
import Foundation
import Glibc
import ShareKitSQLInterface
import ShareKitSQLiteStore

/// Measures the peak RSS of the built `share send FILE --to thread:t1`
/// process (the claim: "a 2 GiB file is shared with flat memory") for each
/// size, against the same send of a 1 MiB file in the same run, and checks
/// on the server that each message arrived with an attachment of the
/// file's size. It also measures the peak RSS of a text share, and times
/// the largest send against `cp` of the same file (with an fsync of the
/// copy, as the share's copies are made durable) in the same run.
struct ShareMemoryBenchmark {
    static let referenceMiB = 1
    /// At most this much more peak RSS for the largest file than for the
    /// smallest non-reference one (as `upload-memory/`).
    static let goalGrowthMiB = 4.0
    /// At most this peak RSS of `share send`, for a text share and for the largest file.
    static let goalPeakMiB = 30.0
    /// At least this fraction of `cp`'s throughput for the largest file.
    static let goalThroughputRatio = 0.4
    /// Free space a share of N bytes needs: the file itself, the inbox's
    /// copy, the server's parts and cp's copy.
    static let spaceFactor: Int64 = 4

    let options: Options

    /// One `share send`'s figures.
    struct Measurement {
        let sizeMiB: Int
        let seconds: Double
        let peakKiB: Int
        /// `cp` of the same file (with an fsync of the copy) before and after the send, in seconds.
        var copySeconds: [Double] = []
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
            "limits": ["file_max_upload_bytes": 3 << 30, "upload_part_size": options.partMiB << 20],
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

        let textPeaksKiB = try textShares(client)
        var measurements: [Measurement] = []
        let largest = options.sizesMiB.max() ?? Self.referenceMiB
        for sizeMiB in [Self.referenceMiB] + options.sizesMiB {
            let needed = Self.spaceFactor * Int64(sizeMiB) << 20
            let free = Self.freeBytes(directory)
            guard free >= needed else {
                say(
                    String(
                        format: "%5d MiB: SKIPPED: %.1f GiB free in %@, the share needs %.1f GiB "
                            + "(the file, the inbox's copy, the server's stored parts, cp's copy); use --tmp DIR",
                        sizeMiB, Double(free) / Double(1 << 30), directory, Double(needed) / Double(1 << 30)))
                continue
            }
            measurements.append(
                try measure(
                    sizeMiB, client: client, server: server, directory: directory,
                    againstCopy: sizeMiB == largest && sizeMiB != Self.referenceMiB))
        }
        report(measurements)
        reportGoals(textPeaksKiB: textPeaksKiB, largest: measurements.last { $0.sizeMiB == largest })
    }

    /// `share send --text hi --to thread:t1`, `options.textRuns` times; each must be sent.
    /// - Returns: the peak RSS of each run, in KiB.
    private func textShares(_ client: ShareClient) throws -> [Int] {
        var peaks: [Int] = []
        for _ in 0..<options.textRuns {
            let result = try client.run("share", ["send", "--text", "hi", "--to", "thread:t1"])
            guard result.status == 0, result.stdout.hasPrefix("sent to ") else {
                throw Spawn.Failure(
                    description: "share send --text exited with \(result.status): \(result.stdout)\(result.stderr)")
            }
            peaks.append(result.usage.ru_maxrss)
        }
        let sorted = peaks.sorted()
        say(
            String(
                format: "text share: peak RSS of share send --text hi %.1f MiB (median of %d runs; min %.1f, max %.1f)",
                Double(sorted[sorted.count / 2]) / 1024, sorted.count, Double(sorted.first!) / 1024,
                Double(sorted.last!) / 1024))
        return peaks
    }

    /// Shares one file of `sizeMiB` pseudo-random bytes with `share send`,
    /// checks the server's copy and removes it and the file again. With
    /// `againstCopy`, `cp` copies the same file (and the copy is fsynced)
    /// right before and right after the send.
    private func measure(
        _ sizeMiB: Int, client: ShareClient, server: ShareServer, directory: String, againstCopy: Bool
    ) throws -> Measurement {
        let path = directory + "/share-\(sizeMiB)MiB.bin"
        try Self.writeRandomFile(path, mebibytes: sizeMiB)
        defer { unlink(path) }
        var copySeconds: [Double] = []
        if againstCopy { copySeconds.append(try Self.timedCopy(path, directory: directory)) }
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
        let cleanup = try Self.waitForBackgroundCleanup(client)
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
                format: "%5d MiB: %7.2f s  %7.1f MiB/s  peak RSS of share %6.1f MiB  message %@ holds %lld bytes%@",
                sizeMiB, result.seconds, Double(sizeMiB) / result.seconds, Double(peakKiB) / 1024, messageID,
                Int64(sizeMiB) << 20,
                cleanup > 0
                    ? String(format: "; the copy's deletion in the background took %.2f s more", cleanup) : ""))
        if againstCopy {
            copySeconds.append(try Self.timedCopy(path, directory: directory))
            say(
                String(
                    format: "cp of %d MiB with fsync of the copy: %.2f s before, %.2f s after the send (%.1f MiB/s)",
                    sizeMiB, copySeconds[0], copySeconds[1],
                    Double(sizeMiB) / (copySeconds.reduce(0, +) / Double(copySeconds.count))))
        }
        return Measurement(sizeMiB: sizeMiB, seconds: result.seconds, peakKiB: peakKiB, copySeconds: copySeconds)
    }

    /// Waits until the share inbox's staging folder holds no completed
    /// entry any more: `share send` leaves a large share's copy to a
    /// `share inbox clean` it starts in the background, and the next
    /// measurement (the `cp` after the send, the next size) must not run
    /// beside that deletion.
    /// - Returns: the seconds waited (0 when nothing was left).
    /// - Throws: when the folder is not empty after a minute.
    static func waitForBackgroundCleanup(_ client: ShareClient) throws -> Double {
        let staging = client.inboxPath + "/.staging"
        let started = Clock.nanoseconds()
        func pending() -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).contains { $0.contains(".done.") }
        }
        guard pending() else { return 0 }
        while pending() {
            guard Clock.nanoseconds() - started < 60_000_000_000 else {
                throw Spawn.Failure(description: "the sent share's copy was still in \(staging) a minute later")
            }
            usleep(5_000)
        }
        return Double(Clock.nanoseconds() - started) / 1e9
    }

    /// Writes `mebibytes` of pseudo-random bytes (a SplitMix64 stream, which
    /// no file system compresses or leaves sparse) and fsyncs them, so that
    /// the file is on the disk and in the page cache before it is shared.
    static func writeRandomFile(_ path: String, mebibytes: Int) throws {
        try RandomFile.write(path, mebibytes: mebibytes, seed: 0x5348_4152_454B_4954, durable: true)
    }

    /// `cp FILE COPY` (coreutils) and an fsync of the copy, the reference for
    /// a durable copy of the file; the copy is removed again.
    /// - Returns: the wall-clock seconds of both.
    static func timedCopy(_ path: String, directory: String) throws -> Double {
        let copy = directory + "/cp-reference.bin"
        defer { unlink(copy) }
        let started = Clock.nanoseconds()
        try Spawn.run("cp", [path, copy])
        let fd = open(copy, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else { throw Spawn.Failure(description: "cannot fsync \(copy)") }
        close(fd)
        return Double(Clock.nanoseconds() - started) / 1e9
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

    /// The goal lines: the text share's peak (median of its runs), the
    /// largest file's peak, and the largest send against cp.
    private func reportGoals(textPeaksKiB: [Int], largest: Measurement?) {
        say(
            String(
                format: "this benchmark's own peak RSS: %.1f MiB (a floor of each peak RSS above: posix_spawn's "
                    + "child starts in this process's memory)", ProcessMemory.peakMiB))
        let sorted = textPeaksKiB.sorted()
        let textMiB = Double(sorted[sorted.count / 2]) / 1024
        say(
            String(
                format: "GOAL share-rss-text value=%.1fMiB <= %gMiB %@ -- peak RSS of share send --text hi, "
                    + "median of %d runs (min %.1f, max %.1f MiB)", textMiB, Self.goalPeakMiB,
                textMiB <= Self.goalPeakMiB ? "PASS" : "FAIL", sorted.count, Double(sorted.first!) / 1024,
                Double(sorted.last!) / 1024))
        guard let largest, largest.sizeMiB != Self.referenceMiB else { return }
        let peakMiB = Double(largest.peakKiB) / 1024
        let note = largest.sizeMiB == 2048 ? "" : " (this run's largest file, not 2 GiB)"
        say(
            String(
                format: "GOAL share-rss-2gib value=%.1fMiB <= %gMiB %@ -- peak RSS of share send of a %d MiB file%@",
                peakMiB, Self.goalPeakMiB, peakMiB <= Self.goalPeakMiB ? "PASS" : "FAIL", largest.sizeMiB, note))
        guard !largest.copySeconds.isEmpty else { return }
        let copy = largest.copySeconds.reduce(0, +) / Double(largest.copySeconds.count)
        let ratio = copy / largest.seconds
        say(
            String(
                format: "GOAL large-send-vs-cp value=%.2fx >= %gx %@ -- %d MiB: share send %.2f s (%.1f MiB/s), "
                    + "cp with fsync of the copy %.2f s (mean of %.2f s before and %.2f s after)%@", ratio,
                Self.goalThroughputRatio, ratio >= Self.goalThroughputRatio ? "PASS" : "FAIL", largest.sizeMiB,
                largest.seconds, Double(largest.sizeMiB) / largest.seconds, copy, largest.copySeconds[0],
                largest.copySeconds.last!, note))
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
