/// The HTTP methods the contract uses.
///
/// Its own small type rather than the client's `HTTPRequestMethod` or the
/// server's `HTTPMethod`: the contract is shared by both sides and depends
/// on neither; each side converts through ``rawValue``.
public enum WireMethod: String, CaseIterable, Hashable, Sendable {
    /// `GET`.
    case get = "GET"
    /// `POST`.
    case post = "POST"
    /// `PUT`.
    case put = "PUT"
    /// `PATCH`.
    case patch = "PATCH"
    /// `DELETE`.
    case delete = "DELETE"
}
