import CShareKitCurl
import CShareKitCurlShim
import ShareKitHTTPInterface
import ShareKitHTTPTypes

/// Checks request URLs with libcurl's own URL parser, so that what is
/// accepted here is exactly what the transfer will use.
enum CurlURL {
    /// Accepts absolute `http` and `https` URLs with a host.
    /// - Parameter url: the request URL.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError/invalidURL(_:)``; the message names the
    ///   scheme or the problem, never the whole URL (a query may hold secrets).
    static func validate(_ url: String) throws(HTTPClientError) {
        guard let handle = ccurl_url() else { throw .transportFailure("libcurl could not parse URLs (out of memory)") }
        defer { ccurl_url_cleanup(handle) }
        guard ccurl_url_set(handle, CURLUPART_URL, url, 0) == CURLUE_OK else {
            throw .invalidURL("not an absolute http or https URL")
        }
        guard let scheme = part(handle, CURLUPART_SCHEME), scheme == "http" || scheme == "https" else {
            throw .invalidURL("the scheme must be http or https")
        }
        guard let host = part(handle, CURLUPART_HOST), !host.isEmpty else {
            throw .invalidURL("the URL has no host")
        }
    }

    private static func part(_ handle: OpaquePointer, _ which: CURLUPart) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ccurl_url_get(handle, which, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { ccurl_free(value) }
        return String(cString: value)
    }
}
