import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import ShareKitSystemTesting
import Testing

/// The value types of HTTPServerInterface, without a server.
@Suite("HTTP server interface values")
struct InterfaceValueTests {
    @Test("header names compare without case and keep every line of a repeated field")
    func headers() {
        var headers: HTTPFields = ["Accept": "a", "X-Multi": "1", "x-multi": "2, 3"]
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "X-MULTI") == ["1", "2, 3"])
        #expect(headers.contains("x-Multi"))
        headers.set("X-MULTI", "4")
        #expect(headers.values(for: "x-multi") == ["4"])
        headers.remove("accept")
        #expect(headers["Accept"] == nil)
        #expect(headers.count == 1)
        #expect(!headers.description.contains("4"), "a header list never prints values")
    }

    @Test("query strings decode like HTML forms; bare names have no value")
    func query() {
        let items = HTTPQueryItem.parse("a=1&b=x+y&c=%E2%9C%93&flag&empty=&&a=2&bad=%zz&eq=a=b")
        #expect(
            items == [
                HTTPQueryItem(name: "a", value: "1"), HTTPQueryItem(name: "b", value: "x y"),
                HTTPQueryItem(name: "c", value: "✓"), HTTPQueryItem(name: "flag", value: nil),
                HTTPQueryItem(name: "empty", value: ""), HTTPQueryItem(name: "a", value: "2"),
                HTTPQueryItem(name: "bad", value: "%zz"), HTTPQueryItem(name: "eq", value: "a=b"),
            ])
    }

    @Test("a request head splits its target: raw path, decoded segments, raw query, items")
    func head() {
        let head = HTTPRequestHead(method: .get, target: "/files/a%2Fb/c+d?q=x%20y&n=1")
        #expect(head.path == "/files/a%2Fb/c+d")
        #expect(head.pathSegments == ["files", "a/b", "c+d"])
        #expect(head.rawQuery == "q=x%20y&n=1")
        #expect(head.queryValue("q") == "x y")
        #expect(head.queryValues("n") == ["1"])
        let absolute = HTTPRequestHead(method: .get, target: "http://example.com:8080/x/y?z=1")
        #expect(absolute.path == "/x/y")
        #expect(absolute.queryValue("z") == "1")
        #expect(HTTPRequestHead(method: .get, target: "/").pathSegments.isEmpty)
        #expect(HTTPRequestHead(method: .get, target: "/a?").rawQuery == "")
        let secret = HTTPRequestHead(
            method: .get, target: "/p?token=secret", headers: ["Authorization": "DPoP secret"], requestID: "r1")
        #expect(!secret.description.contains("secret"))
    }

    @Test("a problem is RFC 9457 JSON with a code, escaped")
    func problem() throws {
        let problem = HTTPProblem(
            status: .forbidden, code: "write_forbidden", title: "Forbidden", detail: "say \"no\"\n\u{1}")
        let response = problem.response(headers: ["Retry-After": "3"])
        #expect(response.status == .forbidden)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.headers["retry-after"] == "3")
        #expect(
            String(decoding: problem.jsonBytes, as: UTF8.self)
                == #"{"type":"about:blank","title":"Forbidden","status":403,"code":"write_forbidden","detail":"say \"no\"\n\u0001"}"#
        )
    }

    @Test("a log line has method, route, status, duration, id and outcome")
    func logLine() {
        let record = HTTPRequestLogRecord(
            requestID: "abc-1", method: .put, route: "/uploads/{id}", status: .ok, duration: .microseconds(1234),
            bodyBytes: 10, outcome: .completed)
        #expect(record.description == "PUT /uploads/{id} 200 1.234ms id=abc-1 in=10 completed")
        let refused = HTTPRequestLogRecord(
            requestID: "abc-2", method: nil, route: "/", status: nil, duration: .milliseconds(2), bodyBytes: 0,
            outcome: .clientDisconnected, failure: "x")
        #expect(refused.description == "- / - 2.000ms id=abc-2 in=0 disconnected error=x")
    }
}
