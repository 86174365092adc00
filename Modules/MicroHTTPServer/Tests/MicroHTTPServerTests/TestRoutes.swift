import Foundation
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Synchronization

/// The handler the tests serve: a few routes, each exercising one part of
/// the engine's contract.
struct TestRoutes: HTTPRequestHandler {
    let controls: TestControls

    func prepare(for head: HTTPRequestHead) throws -> HTTPBodyDisposition {
        if let port = head.remoteAddress?.port { controls.clientPorts.withLock { _ = $0.insert(port) } }
        let segments = head.pathSegments
        switch (head.method, segments.first) {
        case (.put, "upload"):
            guard segments.count == 2 else { throw notFound }
            return .stream(try FileSink(path: controls.uploadDirectory + "/" + segments[1], controls: controls))
        case (.put, "refusing-upload"):
            return .stream(RefusingSink(controls: controls))
        case (.put, "reject"):
            return .reject(
                HTTPProblem(status: .forbidden, code: "write_forbidden", title: "Forbidden").response())
        case (.post, "small"):
            return .buffer(maxBytes: 1024)
        case (.post, _), (.put, _), (.patch, _):
            return .buffer(maxBytes: 1 << 20)
        default:
            return .buffer(maxBytes: 0)
        }
    }

    func respond(to head: HTTPRequestHead, body: [UInt8]) throws -> HTTPResponse {
        controls.respondCalls.add(1, ordering: .relaxed)
        let segments = head.pathSegments
        switch (head.method, segments.first ?? "") {
        case (.get, "hello"), (.head, "hello"):
            return .text(.ok, "hello")
        case (.get, "items") where segments.count == 2:
            return .text(.ok, "item-\(segments[1])\n")
        case (.put, "items") where segments.count == 2:
            return .text(.ok, "put \(segments[1]) \(body.count) bytes: \(String(decoding: body, as: UTF8.self))")
        case (.post, "items"):
            return HTTPResponse(
                status: .created, headers: ["Content-Type": "application/octet-stream"], body: .bytes(body),
                routeTemplate: "/items")
        case (.delete, "items") where segments.count == 2:
            return HTTPResponse(status: .noContent, routeTemplate: "/items/{id}")
        case (.post, "small"):
            return .text(.ok, "got \(body.count) bytes")
        case (.get, "headers"):
            // Lookups in other cases than the client used.
            let multi = head.headers.values(for: "x-MULTI").joined(separator: "|")
            let token = head.headers["AUTHORIZATION"] ?? "-"
            return HTTPResponse(
                status: .ok,
                headers: [
                    "X-Out": "one", "x-out": "two", "Set-Cookie": "a=1; Path=/", "Set-Cookie": "b=2; Path=/",
                    "Content-Length": "999",
                ],
                body: .bytes(Array("multi=\(multi)\nauthorization=\(token)\n".utf8)))
        case (.get, "query"):
            var lines = ["path=" + head.path, "segments=" + segments.joined(separator: "|")]
            lines.append("raw=" + (head.rawQuery ?? "nil"))
            for item in head.queryItems { lines.append("\(item.name)=\(item.value ?? "nil")") }
            return .text(.ok, lines.joined(separator: "\n"))
        case (.get, "big"), (.post, "big"):
            // A large answer held in memory, as a page of messages is.
            let size = min(Int(head.queryValue("size") ?? "") ?? 0, 64 << 20)
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": "application/octet-stream"],
                body: .bytes([UInt8](repeating: 0x78, count: size)))
        case (.get, "scheme"):
            return .text(.ok, head.isSecure ? "https" : "http")
        case (.get, "throw"):
            throw TestFailure.boom
        case (.get, "problem"):
            throw HTTPProblem(
                status: .forbidden, code: "write_forbidden", title: "Forbidden", detail: "No writing here.")
        case (.get, "wait"):
            controls.waitEntered.signal()
            controls.waitRelease.wait()
            return .text(.ok, "woke")
        case (.get, "events"):
            // A long poll with nothing to report: it waits out its `wait`
            // (milliseconds here), as `GET /events?wait=30` does.
            let wait = Int(head.queryValue("wait") ?? "") ?? 0
            let woken = controls.waitRelease.wait(timeout: .now() + .milliseconds(wait)) == .success
            return .text(.ok, woken ? "event" : "no events")
        case (.get, "slow"):
            controls.slowEntered.signal()
            controls.slowRelease.wait()
            return .text(.ok, "slow done")
        case (.get, "file"):
            return HTTPResponse(
                status: .ok, body: .file(path: controls.uploadDirectory + "/" + (head.queryValue("name") ?? "")))
        case (.get, "file-range"):
            return HTTPResponse(
                status: .partialContent,
                body: .file(
                    path: controls.uploadDirectory + "/" + (head.queryValue("name") ?? ""), offset: 2, length: 3))
        case (.get, "bad-header"):
            return HTTPResponse(status: .ok, headers: ["X-Injected": "a\r\nSet-Cookie: evil=1"])
        case (.get, "bad-status"):
            return HTTPResponse(status: 99)
        default:
            throw notFound
        }
    }

    func serverWillStop() {
        controls.stopping.signal()
        if controls.wakeWaitersOnStop.load(ordering: .relaxed) { controls.waitRelease.signal() }
    }

    private var notFound: HTTPProblem {
        HTTPProblem(status: .notFound, code: "not_found", title: "Not Found")
    }
}
