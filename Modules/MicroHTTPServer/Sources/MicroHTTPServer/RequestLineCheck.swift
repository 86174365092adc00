import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// The checks of a request line that libmicrohttpd leaves to the
/// application: it accepts any bytes as a method and any target. A handler
/// should never see a method that is not a token (DPoP compares `htm` with
/// it) or a target that is not a path, so both are a 400 here.
enum RequestLineCheck {
    /// The 400 problem for a malformed method or target, or nil when both are fine.
    /// - Parameters:
    ///   - method: the method as sent.
    ///   - target: the request target as sent.
    static func problem(method: String, target: String) -> HTTPProblem? {
        guard !method.isEmpty, method.utf8.allSatisfy(isTokenCharacter) else {
            return badRequest("The request method is not a valid token.")
        }
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            return badRequest("The request target contains control characters or spaces.")
        }
        let lower = target.lowercased()
        let wellFormed =
            target.hasPrefix("/") || lower.hasPrefix("http://") || lower.hasPrefix("https://")
            || (target == "*" && method == "OPTIONS")
        guard wellFormed else { return badRequest("The request target is not a path or an absolute URL.") }
        return nil
    }

    /// `tchar` of RFC 9110 section 5.6.2.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func badRequest(_ detail: String) -> HTTPProblem {
        HTTPProblem(status: .badRequest, code: "bad_request", title: "Bad Request", detail: detail)
    }
}
