import CCurl

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
}
