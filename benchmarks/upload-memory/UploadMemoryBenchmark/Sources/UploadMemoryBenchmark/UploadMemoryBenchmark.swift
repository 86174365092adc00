import BenchmarkSupport
import Dispatch
import Foundation
import Glibc
import ShareKitCryptoInterface
import ShareKitOpenSSLCrypto
import Synchronization

/// Set by SIGINT, SIGTERM or SIGHUP; the child being measured, if any.
enum Interruption {
    static let flag = Atomic<Bool>(false)
    static let childPID = Atomic<Int32>(0)
}

/// Measures the peak RSS (VmHWM) of a fresh process uploading each file size
/// to a release `share-server` with StreamingUploader, and checks the
/// goal: at most 48 MiB, and at most 4 MiB more for the largest file than
/// for the smallest.
struct UploadMemoryBenchmark {
    static let goalPeakMiB = 48.0
    static let goalGrowthMiB = 4.0

    let options: Options

    /// One child's figures.
    struct Measurement {
        let sizeMiB: Int
        let seconds: Double
        let startKiB: Int
        let loginKiB: Int
        let peakKiB: Int
        let endRSSKiB: Int
        let sha256Matches: Bool
    }

    func run() async throws {
        let executable = try options.server ?? ShareServer.buildRelease()
        let parent = options.temporaryParent ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array((parent + "/upload-memory-benchmark.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Spawn.Failure(description: "mkdtemp in \(parent) failed: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/server", withIntermediateDirectories: false)
        let server = try ServerProcess.start(
            executable: executable, directory: directory + "/server", quiet: options.quietServer)
        let stopOnSignal = Self.stopOnSignals(serverPID: server.pid)
        defer {
            let status = server.stop().map { "\($0)" } ?? "unknown"
            say("share-server stopped with SIGTERM, exit status \(status)")
            for source in stopOnSignal { source.cancel() }
        }
        say("share-server \(executable) (pid \(server.pid)) on \(server.origin); run directory \(directory)")

        var measurements: [Measurement] = []
        do {
            var files: [(sizeMiB: Int, path: String, sha256: String)] = []
            for sizeMiB in options.sizesMiB {
                let path = directory + "/upload-\(sizeMiB)MiB.bin"
                let started = Clock.nanoseconds()
                let sha256 = try Self.writeFile(path, sizeMiB: sizeMiB)
                say(
                    String(
                        format: "wrote %d MiB of random data in %.1f s (sha256 %@)", sizeMiB,
                        Double(Clock.nanoseconds() - started) / 1e9, sha256))
                files.append((sizeMiB, path, sha256))
            }
            for (index, file) in files.enumerated() {
                guard !Interruption.flag.load(ordering: .sequentiallyConsistent) else {
                    throw Spawn.Failure(description: "interrupted")
                }
                let measurement = try measure(file, home: directory + "/client-\(index)", origin: server.origin)
                measurements.append(measurement)
                // The server keeps the stored file; drop it so the disk holds one copy at a time.
                try? FileManager.default.removeItem(atPath: file.path)
            }
        } catch {
            let tail = server.logTail()
            if !tail.isEmpty { say(tail) }
            throw error
        }
        report(measurements)
    }

    /// Runs one fresh child process uploading `file` and reads its figures.
    private func measure(_ file: (sizeMiB: Int, path: String, sha256: String), home: String, origin: String) throws
        -> Measurement
    {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let output = try Spawn.output(
            Self.executablePath,
            [
                "--child", origin, file.path, file.sha256, home, ServerProcess.username, ServerProcess.password,
                "\(ServerProcess.partSize)",
            ]
        ) { Interruption.childPID.store($0, ordering: .sequentiallyConsistent) }
        Interruption.childPID.store(0, ordering: .sequentiallyConsistent)
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            values[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        func kib(_ key: String) throws -> Int {
            guard let text = values[key], let value = Int(text) else {
                throw Spawn.Failure(description: "the child did not report \(key); it printed:\n\(output)")
            }
            return value
        }
        guard let secondsText = values["seconds"], let seconds = Double(secondsText) else {
            throw Spawn.Failure(description: "the child did not report seconds; it printed:\n\(output)")
        }
        let measurement = Measurement(
            sizeMiB: file.sizeMiB, seconds: seconds, startKiB: try kib("vmhwm_start_kib"),
            loginKiB: try kib("vmhwm_login_kib"), peakKiB: try kib("vmhwm_end_kib"),
            endRSSKiB: try kib("vmrss_end_kib"), sha256Matches: values["sha256_match"] == "yes")
        say(
            String(
                format:
                    "%5d MiB: %7.2f s  %7.1f MiB/s  peak RSS %6.1f MiB  (VmHWM at start %.1f, after login %.1f; "
                    + "VmRSS at the end %.1f)  server sha256 %@",
                file.sizeMiB, seconds, Double(file.sizeMiB) / seconds, mib(measurement.peakKiB),
                mib(measurement.startKiB), mib(measurement.loginKiB), mib(measurement.endRSSKiB),
                measurement.sha256Matches ? "matches" : "DIFFERS: \(values["sha256_match"] ?? "not reported")"))
        return measurement
    }

    private func report(_ measurements: [Measurement]) {
        guard let smallest = measurements.min(by: { $0.sizeMiB < $1.sizeMiB }),
            let largest = measurements.max(by: { $0.sizeMiB < $1.sizeMiB })
        else { return }
        let worst = measurements.map { mib($0.peakKiB) }.max() ?? 0
        let growth = mib(largest.peakKiB) - mib(smallest.peakKiB)
        let peakOK = worst <= Self.goalPeakMiB
        let growthOK = growth <= Self.goalGrowthMiB
        let hashesOK = measurements.allSatisfy(\.sha256Matches)
        say(
            String(
                format: "peak RSS, largest: %.1f MiB (goal at most %.0f MiB): %@", worst, Self.goalPeakMiB,
                peakOK ? "PASS" : "FAIL"))
        if largest.sizeMiB != smallest.sizeMiB {
            say(
                String(
                    format: "peak RSS %d MiB minus %d MiB: %+.1f MiB (goal at most %.0f MiB): %@", largest.sizeMiB,
                    smallest.sizeMiB, growth, Self.goalGrowthMiB, growthOK ? "PASS" : "FAIL"))
        }
        say("server sha256 equals the file's for every size: \(hashesOK ? "yes" : "NO")")
        say("result: \(peakOK && growthOK && hashesOK ? "PASS" : "FAIL")")
    }

    private func mib(_ kilobytes: Int) -> Double { Double(kilobytes) / 1024 }

    private func say(_ text: String) {
        print(text)
        fflush(nil)
    }

    /// Writes `sizeMiB` MiB of pseudo-random bytes in 1 MiB blocks (never
    /// more in memory) and returns their SHA-256 in hex, computed on the way.
    static func writeFile(_ path: String, sizeMiB: Int) throws -> String {
        var hasher = try OpenSSLCryptoProvider().makeSHA256Hasher()
        try RandomFile.write(path, mebibytes: sizeMiB, seed: 0x5EED &+ UInt64(sizeMiB)) { block in
            guard !Interruption.flag.load(ordering: .sequentiallyConsistent) else {
                throw Spawn.Failure(description: "interrupted")
            }
            hasher.update(block)
        }
        return try hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// SIGINT, SIGTERM and SIGHUP send SIGTERM to the server and to a running
    /// child and mark the run interrupted; the main flow then fails and stops
    /// and removes everything itself (one owner of the cleanup, no race).
    /// Handled on a dispatch queue, not in a signal handler.
    private static func stopOnSignals(serverPID: pid_t) -> [any DispatchSourceSignal] {
        signal(SIGPIPE, SIG_IGN)
        return [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Interruption.flag.store(true, ordering: .sequentiallyConsistent)
                let child = Interruption.childPID.load(ordering: .sequentiallyConsistent)
                if child > 0 { kill(child, SIGTERM) }
                kill(serverPID, SIGTERM)
            }
            source.resume()
            return source
        }
    }

    /// This executable, to start as `--child`.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
