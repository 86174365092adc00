import Foundation
import ShareKitWireContract
import Testing

/// The routes: built paths match back to the same route, the matching
/// rules the server has always had (405 with the allowed methods, U+0000,
/// empty segments), and one endpoint per operation.
@Suite("Routes")
struct RouteTests {
    /// A route of every operation, with parameters that need encoding.
    static let samples: [Route] = WireOperation.allCases.map { operation in
        let values = operation.parameterNames.map { $0 == "n" ? "3" : "a b/ü%\($0)" }
        return Route(operation, parameters: values)!
    }

    /// Splits a path as the server's request head does: on `/` first, then percent-decoding each segment.
    static func segments(_ path: String) -> [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? "" }
    }

    @Test("every operation's path matches back to the same route")
    func roundTrip() {
        for route in Self.samples {
            #expect(
                Route.match(method: route.operation.method.rawValue, segments: Self.segments(route.path))
                    == .found(route))
        }
    }

    @Test("operationIds are unique and (method, template) pairs too")
    func unique() {
        #expect(Set(WireOperation.allCases.map(\.operationID)).count == WireOperation.allCases.count)
        let pairs = WireOperation.allCases.map { "\($0.method.rawValue) \($0.template)" }
        #expect(Set(pairs).count == pairs.count)
    }

    @Test("paths are encoded as the clients have always encoded them")
    func encoding() {
        #expect(Route.createMessage(threadID: "t 1/ü").path == "/api/v1/threads/t%201%2F%C3%BC/messages")
        #expect(Route.uploadPart(uploadID: "up_1", number: 2).path == "/api/v1/uploads/up_1/parts/2")
        #expect(Route.getMessagePage(messageID: "m~-._").path == "/web/messages/m~-._")
        #expect(
            Route.searchThreadTitles.path(query: [("q", "a&b"), ("limit", nil)]) == "/api/v1/threads/search?q=a%26b")
        #expect(Route.listEvents.path(query: [("after", nil)]) == "/api/v1/events")
    }

    @Test("path segments and query values cannot change the path's shape")
    func shape() {
        #expect(WirePath.encode("t1/../admin?x=1") == "t1%2F..%2Fadmin%3Fx%3D1")
        #expect(WirePath.query("/a", [("q", "a b&c"), ("after", nil)]) == "/a?q=a%20b%26c")
    }

    @Test("a known path with another method gives the allowed methods in table order")
    func wrongMethod() {
        #expect(
            Route.match(method: "PUT", segments: ["api", "v1", "uploads", "u1"])
                == .wrongMethod(allowed: [.get, .delete]))
        #expect(
            Route.match(method: "HEAD", segments: ["api", "v1", "settings"]) == .wrongMethod(allowed: [.get, .patch]))
        #expect(
            Route.match(method: "DELETE", segments: ["api", "v1", "threads", "t1", "messages"])
                == .wrongMethod(allowed: [.get, .post]))
    }

    @Test("an id with U+0000 names nothing: 404, never 405")
    func nul() {
        #expect(Route.match(method: "GET", segments: ["api", "v1", "uploads", "u\u{0}1"]) == .notFound)
        #expect(Route.match(method: "PUT", segments: ["api", "v1", "uploads", "u\u{0}1"]) == .notFound)
    }

    @Test("unknown paths, empty or missing segments are not found")
    func notFound() {
        #expect(Route.match(method: "GET", segments: ["api", "v1", "nothing"]) == .notFound)
        #expect(Route.match(method: "GET", segments: ["api", "v1", "uploads", ""]) == .notFound)
        #expect(Route.match(method: "GET", segments: []) == .notFound)
        #expect(
            Route.match(method: "GET", segments: ["api", "v1", "threads", "search"]) == .found(.searchThreadTitles))
    }

    @Test("parameters by name")
    func parameters() {
        let route = Route.uploadPart(uploadID: "up_1", part: "x")
        #expect(route.parameter("id") == "up_1")
        #expect(route.parameter("n") == "x")
        #expect(route.parameter("other") == nil)
        #expect(Route(.uploadPart, parameters: ["a"]) == nil)
    }

    @Test("one endpoint per operation, in operation order")
    func endpoints() {
        #expect(Endpoints.all.map { $0.operation } == WireOperation.allCases)
    }

    @Test("every operation's problem codes are known codes, without duplicates")
    func problemCodes() {
        for operation in WireOperation.allCases {
            #expect(Set(operation.problemCodes).isSubset(of: ProblemCode.known), "\(operation)")
            #expect(Set(operation.problemCodes).count == operation.problemCodes.count, "\(operation)")
        }
    }
}
