import CCurl
import CCurlShim

/// Facts about the libcurl this process linked.
public enum CurlLibrary {
    /// The version of the linked libcurl, e.g. `7.88.1`, for `--version` and bug reports.
    public static var version: String {
        // CURLVERSION_NOW is a macro Swift cannot import; 10 is CURLVERSION_TENTH, which curl 7.77 and later provide.
        guard let info = curl_version_info(CURLversion(rawValue: 10)), let v = info.pointee.version else {
            return "unknown"
        }
        return String(cString: v)
    }

    /// `curl_global_init`, run once per process before the first handle is
    /// made (Swift runs a static initializer exactly once, thread-safely).
    /// - Returns: nil when it succeeded, else libcurl's message.
    static let initializationFailure: String? = {
        let code = curl_global_init(ccurl_global_all())
        return code == CURLE_OK ? nil : String(cString: curl_easy_strerror(code))
    }()
}
