import BenchmarkSupport
import Foundation
import Glibc

/// Measures the built `share` as a person starts it: a warm, logged-in
/// `share send --text hi --to thread:t1` against `curl -s -o /dev/null
/// URL/api/v1/health` on the same release `share-server` (the cheapest
/// request a process can make of it), in alternating pairs so that both see
/// the same machine, and `share --version` alone.
struct SmallShareBenchmark {
    /// At most this many times curl's median wall time for the text share.
    static let goalRatio = 3.0
    /// `share --version` below this median wall time.
    static let goalVersionMilliseconds = 10.0

    let options: Options

    /// One finished program.
    struct Run {
        let milliseconds: Double
        let peakKiB: Int
    }

    func run() throws {
        let bin =
            try options.binDirectory ?? ShareServer.buildRelease(products: ["share-server", "share-daemon", "share"])
        let directory = try RunDirectory.make(parent: options.temporaryParent, prefix: "small-share-benchmark")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/server", withIntermediateDirectories: false)
        let server = try ShareServer(
            executable: bin + "/share-server", seed: nil, directory: directory + "/server", quiet: true)
        defer { server.stop() }
        say("share-server \(bin)/share-server (pid \(server.pid), demo seed) on \(server.origin)")
        // The child session and the server's limits come with the first daemon pass.
        let (client, _) = try ShareClient.loggedIn(
            binDirectory: bin, home: directory + "/client", server: server, user: "alex", password: "alex-demo-pass")
        let health = server.origin + "/api/v1/health"

        // Warm: the page cache holds both programs and their libraries, the
        // server has answered both requests once, thread:t1 is a recent target.
        for _ in 0..<2 {
            _ = try share(client)
            _ = try curl(health, directory: directory)
        }
        var shares: [Run] = []
        var curls: [Run] = []
        for pair in 0..<options.pairs {
            // Alternating order, so neither always runs right after the other.
            if pair % 2 == 0 {
                shares.append(try share(client))
                curls.append(try curl(health, directory: directory))
            } else {
                curls.append(try curl(health, directory: directory))
                shares.append(try share(client))
            }
            say(
                String(
                    format: "pair %2d: share send %7.2f ms  curl %7.2f ms", pair + 1, shares.last!.milliseconds,
                    curls.last!.milliseconds))
        }
        var versions: [Run] = []
        for _ in 0..<options.versionRuns { versions.append(try version(client)) }

        let shareMedian = Self.median(shares.map(\.milliseconds))
        let curlMedian = Self.median(curls.map(\.milliseconds))
        let versionMedian = Self.median(versions.map(\.milliseconds))
        describe("share send --text hi --to thread:t1", shares)
        describe("curl -s -o /dev/null URL/api/v1/health", curls)
        describe("share --version", versions)
        say(
            String(
                format: "this benchmark's own peak RSS: %.1f MiB (a floor of every peak RSS above: a child made by "
                    + "posix_spawn starts in this process's memory, and wait4 reports the larger of the two)",
                ProcessMemory.peakMiB))
        let ratio = shareMedian / curlMedian
        say(String(format: "ratio share send : curl (medians) = %.2f", ratio))
        say(
            String(
                format: "GOAL small-share-vs-curl value=%.2fx <= %gx %@ -- median wall of %d paired runs: "
                    + "share send %.1f ms, curl %.1f ms", ratio, Self.goalRatio,
                ratio <= Self.goalRatio ? "PASS" : "FAIL", options.pairs, shareMedian, curlMedian))
        say(
            String(
                format: "GOAL version-wall value=%.1fms <= %gms %@ -- median of %d runs of share --version "
                    + "(fastest %.1f ms)", versionMedian, Self.goalVersionMilliseconds,
                versionMedian < Self.goalVersionMilliseconds ? "PASS" : "FAIL", options.versionRuns,
                versions.map(\.milliseconds).min() ?? 0))
    }

    /// One `share send --text hi --to thread:t1`, which must be sent.
    private func share(_ client: ShareClient) throws -> Run {
        let result = try client.run("share", ["send", "--text", "hi", "--to", "thread:t1"])
        guard result.status == 0, result.stdout.hasPrefix("sent to ") else {
            throw Spawn.Failure(
                description: "share send exited with \(result.status): \(result.stdout)\(result.stderr)")
        }
        return Run(milliseconds: result.seconds * 1000, peakKiB: result.usage.ru_maxrss)
    }

    /// One `share --version`, which must name the program.
    private func version(_ client: ShareClient) throws -> Run {
        let result = try client.run("share", ["--version"])
        guard result.status == 0, result.stdout.hasPrefix("share ") else {
            throw Spawn.Failure(description: "share --version exited with \(result.status): \(result.stderr)")
        }
        return Run(milliseconds: result.seconds * 1000, peakKiB: result.usage.ru_maxrss)
    }

    /// One `curl -s -o /dev/null -w %{http_code} URL`, which must get 200.
    private func curl(_ url: String, directory: String) throws -> Run {
        let out = directory + "/curl.stdout"
        let started = Clock.nanoseconds()
        let pid = try Spawn.start(
            "curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url], stdout: .file(out),
            stderr: .file(directory + "/curl.stderr"))
        let (status, usage) = Spawn.waitWithUsage(pid)
        let milliseconds = Double(Clock.nanoseconds() - started) / 1e6
        let code = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        guard status == 0, code == "200" else {
            throw Spawn.Failure(description: "curl \(url) exited with \(status), HTTP status '\(code)'")
        }
        return Run(milliseconds: milliseconds, peakKiB: usage.ru_maxrss)
    }

    private func describe(_ what: String, _ runs: [Run]) {
        let times = runs.map(\.milliseconds)
        say(
            String(
                format: "%@: median %.2f ms (min %.2f, max %.2f) over %d runs; peak RSS median %.1f MiB", what,
                Self.median(times), times.min() ?? 0, times.max() ?? 0, runs.count,
                Self.median(runs.map { Double($0.peakKiB) / 1024 })))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func say(_ text: String) {
        print(text)
        fflush(nil)
    }
}
