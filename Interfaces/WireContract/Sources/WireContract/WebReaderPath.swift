/// The paths of a server's web reader (docs/protocol.md, "Web reader"): the
/// pages behind a message's `web_url` for a browser, which has no DPoP key
/// and signs in with a form and a cookie. They are pages, not operations of
/// the API (no ``WireOperation``): spelled here so the server and its tests
/// name them in one place, as the API's routes are.
public enum WebReaderPath {
    /// The prefix of every page, and the session cookie's `Path`.
    public static let base = "/web"
    /// The login form (`GET`) and its post (`POST`; `next` says where to go after).
    public static let login = "/web/login"
    /// Ends the web session (`POST`).
    public static let logout = "/web/logout"
    /// The threads and channels the person can read: where a click on a
    /// placeholder (a notification without a link) leads.
    public static let threads = "/web/threads"
    /// The pages' stylesheet (the only thing a page loads).
    public static let stylesheet = "/web/style.css"

    /// A thread's page.
    /// - Parameter id: the thread's id.
    public static func thread(_ id: String) -> String { "/web/threads/\(id)" }

    /// A channel's main timeline.
    /// - Parameter id: the channel's id.
    public static func channel(_ id: String) -> String { "/web/channels/\(id)" }

    /// The login page that goes on to `next` once signed in.
    /// - Parameter next: a path of the reader.
    public static func login(next: String) -> String { login + "?next=" + next }
}
