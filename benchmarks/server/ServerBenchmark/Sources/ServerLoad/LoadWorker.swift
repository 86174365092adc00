import BenchmarkSupport
import Foundation

/// One connection of the load: its user's pre-built requests, sent one at a
/// time on a keep-alive connection by a thread of its own, with the latency
/// of each answer and a count per status.
public final class LoadWorker: @unchecked Sendable {
    /// The keep-alive connection the requests go over.
    public let connection: HTTPConnection
    /// The requests, made beforehand.
    public let pool: RequestPool

    /// The next request of the pool to send.
    public private(set) var next = 0
    /// Nanoseconds from the start of each request's write to the end of its response, in the window.
    public private(set) var latencies: [UInt64] = []
    /// Answers in the window per status code.
    public private(set) var statuses: [Int: Int] = [:]
    /// Requests in the window that got no answer (connection failures).
    public private(set) var connectionErrors = 0
    /// The first failure or non-201 answer, for the report.
    public private(set) var firstProblem: String?
    /// Whether the pool ran out before the window ended.
    public private(set) var ranOut = false
    /// When the last answer in the window arrived (monotonic nanoseconds).
    public private(set) var lastAnswer: UInt64 = 0
    /// `201` answers per whole second of the window (the last entry may be a partial second).
    public private(set) var createdPerSecond: [Int] = []

    /// A worker that sends `pool` over `connection`.
    public init(connection: HTTPConnection, pool: RequestPool) {
        self.connection = connection
        self.pool = pool
        latencies.reserveCapacity(pool.count)
    }

    /// Sends `count` requests one at a time, outside any measurement, each
    /// of which must be answered `201`: a server that cannot create
    /// messages is not worth loading.
    /// - Throws: when a request fails or is not answered `201`, with the status and body.
    public func check(_ count: Int) throws {
        for _ in 0..<min(count, pool.count) {
            next += 1
            try pool.withRequest(next - 1) { try connection.send($0) }
            let response = try connection.receive()
            guard response.status == 201 else {
                throw HTTPConnection.Failure(
                    description: "createMessage answered \(response.status), not 201: "
                        + String(decoding: connection.bodyBytes[response.body], as: UTF8.self))
            }
            if response.closes { try connection.reconnect() }
        }
    }

    /// Sends requests back to back from `start` until `deadline` (monotonic
    /// nanoseconds) or the end of the pool.
    public func run(from start: UInt64, until deadline: UInt64) {
        createdPerSecond = [Int](repeating: 0, count: Int((deadline - start) / 1_000_000_000) + 2)
        while next < pool.count {
            let sent = Clock.nanoseconds()
            if sent >= deadline { return }
            next += 1
            do {
                try pool.withRequest(next - 1) { try connection.send($0) }
                let response = try connection.receive()
                let answered = Clock.nanoseconds()
                latencies.append(answered - sent)
                lastAnswer = answered
                statuses[response.status, default: 0] += 1
                if response.status == 201 {
                    createdPerSecond[min(createdPerSecond.count - 1, Int((answered - start) / 1_000_000_000))] += 1
                }
                if response.status != 201, firstProblem == nil {
                    firstProblem =
                        "\(response.status): " + String(decoding: connection.bodyBytes[response.body], as: UTF8.self)
                }
                if response.closes { try connection.reconnect() }
            } catch {
                connectionErrors += 1
                if firstProblem == nil { firstProblem = "\(error)" }
                do { try connection.reconnect() } catch { return }
            }
        }
        ranOut = true
    }
}
