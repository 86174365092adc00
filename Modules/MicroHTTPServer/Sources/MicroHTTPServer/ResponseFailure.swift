/// Why a handler's response could not be sent as given. Each is a handler
/// bug; the client gets a 500 and the log gets this description, which names
/// header fields but never their values. Not an `Error`: it is never thrown
/// past ``MHDResponse/make(_:requestID:closeConnection:memory:)``, whose
/// caller answers it in place (``MHDResponse/Made``).
enum ResponseFailure: CustomStringConvertible {
    /// The status is outside 200...599.
    case invalidStatus(Int)
    /// libmicrohttpd refused a header field (empty name, line break in the
    /// value, a character not allowed in a name).
    case invalidHeader(name: String)
    /// A file body could not be opened or examined.
    case fileUnavailable(path: String, errno: Int32)
    /// A file body's range lies outside the file.
    case fileRange(path: String)
    /// libmicrohttpd could not allocate the response.
    case outOfMemory

    /// A message for the log.
    var description: String {
        switch self {
        case .invalidStatus(let code): return "response status \(code) is outside 200...599"
        case .invalidHeader(let name): return "response header field '\(name)' cannot be sent"
        case .fileUnavailable(let path, let code): return "response file \(path) cannot be opened (errno \(code))"
        case .fileRange(let path): return "response range lies outside the file \(path)"
        case .outOfMemory: return "libmicrohttpd could not allocate the response"
        }
    }
}
