import BenchmarkSupport
import Foundation
import Glibc
import ShareKitHTTPInterface
import ShareKitHTTPTransport
import ShareKitHTTPTypes

/// Uploads one large file to a discarding sink (a child process) with
/// `curl -T` and with CurlHTTPClient, alternating, and prints both
/// throughputs and their ratio, with the peak resident memory of each
/// uploading process.
struct UploadBenchmark {
    let options: Options

    func run() async throws {
        let file = try BenchmarkFile(options: options)
        defer { file.remove() }
        let size = file.size

        let pinned = CPUPlacement.isPinned
        let sink =
            pinned
            ? try Child(CPUPlacement.taskset, ["-c", CPUPlacement.sinkCore, Self.executablePath, "--sink"])
            : try Child(Self.executablePath, ["--sink"])
        defer { sink.stop() }
        guard let line = sink.readLine(), line.hasPrefix("listening on "), let port = Int(line.dropFirst(13)) else {
            throw Child.Failure(description: "the sink did not start")
        }
        let url = "http://127.0.0.1:\(port)/sink"

        // Warm-up: load libcurl's and the client's code once, outside the measurements.
        _ = try await CurlHTTPClient().send(HTTPClientRequest(method: .put, url: url, body: .bytes([0])))
        let baseline = Self.status("VmRSS")

        print("upload-benchmark: \(size >> 20) MiB from \(file.path) to a discarding sink on 127.0.0.1:\(port)")
        print("libcurl \(CurlLibrary.version); \(options.runs) runs each, alternating; medians compared")
        print(
            pinned
                ? "uploaders pinned to core \(CPUPlacement.clientCore), the sink to core \(CPUPlacement.sinkCore)"
                : "not pinned: the scheduler places uploaders and sink (expect scattered runs)")
        var curlSeconds: [Double] = []
        var curlPeakKiB = 0
        var clientSeconds: [Double] = []
        for run in 1...options.runs {
            let (curl, peakKiB) = try Self.curlUpload(file.path, url: url, size: size, scratch: file.scratchDirectory)
            curlSeconds.append(curl)
            curlPeakKiB = max(curlPeakKiB, peakKiB ?? 0)
            // A new client per run, so each upload opens its own connection
            // as each `curl -T` process does: the sink's libmicrohttpd reads
            // a later request on a kept-alive connection in a different
            // rhythm (for curl too), and runs would not compare.
            let client = try CurlHTTPClient()
            let start = ContinuousClock.now
            let response = try await client.send(
                HTTPClientRequest(
                    method: .put, url: url, headers: ["Content-Type": "application/octet-stream"],
                    body: .file(HTTPFileRegion(path: file.path, length: UInt64(size)))))
            let seconds = Self.seconds(ContinuousClock.now - start)
            guard response.status == 200, response.text == "\(size)" else {
                throw Child.Failure(
                    description: "the client's upload was not accepted: \(response.status) \(response.text)")
            }
            clientSeconds.append(seconds)
            print(
                String(
                    format: "  run %d: curl -T %.3f s (%.0f MiB/s), CurlHTTPClient %.3f s (%.0f MiB/s)", run, curl,
                    Self.mibPerSecond(size, curl), seconds, Self.mibPerSecond(size, seconds)))
        }

        // Medians: on a small shared machine single runs scatter by a third
        // either way, and the best run rewards luck.
        let curlMedian = Self.mibPerSecond(size, Self.median(curlSeconds))
        let clientMedian = Self.mibPerSecond(size, Self.median(clientSeconds))
        let curlBest = Self.mibPerSecond(size, curlSeconds.min()!)
        let clientBest = Self.mibPerSecond(size, clientSeconds.min()!)
        let ratio = clientMedian / curlMedian
        print(
            String(format: "curl -T:        %.0f MiB/s median, %.0f best; ", curlMedian, curlBest)
                + (curlPeakKiB > 0 ? "peak RSS \(curlPeakKiB >> 10) MiB" : "peak RSS unknown (no /usr/bin/time)"))
        print(
            String(
                format: "CurlHTTPClient: %.0f MiB/s median, %.0f best; peak RSS %d MiB (%d MiB before the uploads)",
                clientMedian, clientBest, Self.status("VmHWM") >> 20, baseline >> 20))
        print(
            String(
                format: "ratio: %.2f of curl's throughput, medians (goal: at least 0.80); %.2f best against best",
                ratio, clientBest / curlBest))
    }

    /// `curl -T` of the file; curl's own `time_total`, so process start-up is
    /// not counted, and its peak RSS from GNU time when there is one (not
    /// from `getrusage`: a child made with `posix_spawn` shares this
    /// process's memory until it execs, and is charged with it).
    private static func curlUpload(_ path: String, url: String, size: Int, scratch: String) throws -> (Double, Int?) {
        let curlArguments = [
            "curl", "-sS", "-T", path, "-o", "/dev/null", "-w", "%{http_code} %{size_upload} %{time_total}", url,
        ]
        let timeOutput = scratch + "/curl-time.txt"
        let measured = access("/usr/bin/time", X_OK) == 0
        let curl =
            measured
            ? try Child("/usr/bin/time", ["-f", "%M", "-o", timeOutput] + curlArguments)
            : try Child("curl", Array(curlArguments.dropFirst()))
        let output = curl.readAll()
        let status = curl.wait()
        let fields = output.split(separator: " ")
        guard status == 0, fields.count == 3, fields[0] == "200", Int(fields[1]) == size,
            let seconds = Double(fields[2])
        else {
            throw Child.Failure(description: "curl -T failed (exit \(status)): \(output)")
        }
        let peak =
            measured
            ? (try? String(contentsOfFile: timeOutput, encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            } : nil
        return (seconds, peak)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    private static func mibPerSecond(_ bytes: Int, _ seconds: Double) -> Double {
        Double(bytes) / 1_048_576 / seconds
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`).
    private static func status(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let value = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
            return (Int(value.split(separator: " ").first ?? "0") ?? 0) * 1024
        }
        return 0
    }

    /// This program, for starting the sink child.
    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
    }
}

extension HTTPClientResponse {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}
