import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// The handler of the loopback test server: a route per behaviour the
/// client must cope with.
struct TestRoutes: HTTPRequestHandler {
    let state: ServerState

    func prepare(for head: HTTPRequestHead) throws -> HTTPBodyDisposition {
        if let port = head.remoteAddress?.port { state.clientPorts.withLock { $0.append(port) } }
        let first = head.pathSegments.first ?? ""
        switch (head.method, first) {
        case (.put, "sink"), (.post, "sink"):
            return .stream(try HashingSink(head: head, state: state))
        case (.put, "slow-sink"):
            let delay = Int(head.queryValue("chunk_delay_ms") ?? "") ?? 10
            return .stream(try HashingSink(head: head, state: state, behaviour: .delayPerChunk(milliseconds: delay)))
        case (.put, "stall-sink"):
            return .stream(try HashingSink(head: head, state: state, behaviour: .stallAfterFirstChunk))
        case (.put, "cut"):
            let after = Int(head.queryValue("after") ?? "") ?? 1 << 20
            return .stream(try HashingSink(head: head, state: state, behaviour: .cutAfter(bytes: after)))
        case (_, "dpop"):
            let challenger = state.dpop
            return .stream(
                try HashingSink(head: head, state: state) { body in challenger.respond(to: head, body: body) })
        case (_, "echo"), (.put, "redirect-to-sink"):
            return .buffer(maxBytes: 4 << 20)
        default:
            return .buffer(maxBytes: 0)
        }
    }

    func respond(to head: HTTPRequestHead, body: [UInt8]) throws -> HTTPResponse {
        let segments = head.pathSegments
        switch (head.method, segments.first ?? "") {
        case (.get, "hello"):
            return .text(.ok, "hello")
        case (.head, "hello"):
            return .text(.ok, "hello")
        case (.get, "headers"):
            return HTTPResponse(
                status: .ok,
                headers: [
                    "X-Out": "one", "x-out": "two", "Set-Cookie": "a=1, b; Path=/", "Set-Cookie": "c=3; Path=/",
                    "X-Seen-Multi": head.headers.values(for: "X-Multi").joined(separator: "|"),
                ],
                body: .bytes(Array("ok".utf8)))
        case (_, "echo"):
            return HTTPResponse(
                status: .ok,
                headers: [
                    "X-Method": head.method.rawValue,
                    "X-Content-Type": head.headers["Content-Type"] ?? "-",
                    "X-Content-Length": head.headers["Content-Length"] ?? "-",
                    "X-Expect": head.headers["Expect"] ?? "-",
                    "X-User-Agent": head.headers["User-Agent"] ?? "-",
                ],
                body: .bytes(body))
        case (.get, "slow"):
            let milliseconds = Int(head.queryValue("ms") ?? "") ?? 5000
            state.waitForRelease(timeout: .milliseconds(milliseconds))
            return .text(.ok, "late")
        case (.get, "big"):
            let count = Int(head.queryValue("bytes") ?? "") ?? 0
            return HTTPResponse(status: .ok, body: .bytes([UInt8](repeating: 0x61, count: count)))
        case (.get, "loop"):
            return HTTPResponse(status: 302, headers: ["Location": "/loop"])
        case (.get, "redirect"):
            return HTTPResponse(status: 302, headers: ["Location": "/hello"])
        case (.put, "redirect-to-sink"):
            // 307 keeps the method and the body: the client must send it again.
            return HTTPResponse(status: 307, headers: ["Location": "/sink"])
        default:
            throw HTTPProblem(status: .notFound, code: "not_found", title: "Not Found")
        }
    }
}
