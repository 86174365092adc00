import CShareKitCurl
import CShareKitCurlShim
import CShareKitLazyLibrary
import Dispatch
import Synchronization

/// Facts about libcurl, which this process loads on its first request
/// (CCurlShim opens it with dlopen; the program does not link it).
public enum CurlLibrary {
    /// The version of the libcurl in use, e.g. `7.88.1`, for the
    /// `User-Agent` and bug reports; loads libcurl (about 5 ms and 5 MiB)
    /// when no request has yet. "unknown" when it cannot be loaded.
    public static var version: String {
        // CURLVERSION_NOW is a macro Swift cannot import; 10 is CURLVERSION_TENTH, which curl 7.77 and later provide.
        guard let info = ccurl_version_info(CURLversion(rawValue: 10)), let v = info.pointee.version else {
            return "unknown"
        }
        return String(cString: v)
    }

    /// The libcurl version of the headers ShareKit was built with, e.g.
    /// `7.88.1`, without loading libcurl: for `--version`, which must not
    /// pay for a library it does not use.
    public static var buildVersion: String { String(cString: ccurl_header_version()) }

    /// Starts loading and initializing libcurl on a background thread, once
    /// per process; whoever needs it first afterwards waits for that (the
    /// initializer below runs exactly once). A ``CurlHTTPClient`` made with
    /// `loadsLibraryEarly` calls this; a program that knows at its start
    /// that it will make a request (`share send --text`) calls it before
    /// reading its own files, which then happens beside the load (libcurl,
    /// its two dozen libraries and OpenSSL: about 6 ms of one core).
    ///
    /// The load is work the program's exit waits for (`CLazyLibrary`'s
    /// `lazy_library_exit`): `curl_global_init` initializes OpenSSL, and an
    /// `exit` that ran OpenSSL's cleanup under it crashed the process on its
    /// way out. Once the program is ending, nothing is loaded ahead any more.
    public static func loadInBackground() {
        guard !backgroundLoadStarted.exchange(true, ordering: .relaxed) else { return }
        let work = lazy_library_work_begin(nil, nil)
        guard work > 0 else { return }
        DispatchQueue.global(qos: .userInitiated).async {
            _ = initializationFailure
            lazy_library_work_end(work)
        }
    }

    private static let backgroundLoadStarted = Atomic<Bool>(false)

    /// `curl_global_init`, run once per process before the first handle is
    /// made (Swift runs a static initializer exactly once, thread-safely).
    /// - Returns: nil when it succeeded, else libcurl's message (or why
    ///   libcurl could not be loaded).
    static let initializationFailure: String? = {
        if let loadError = ccurl_load_error() {
            return "libcurl could not be loaded: " + String(cString: loadError)
                + " (install the Debian package libcurl4)"
        }
        let code = ccurl_global_init(ccurl_global_all())
        return code == CURLE_OK ? nil : String(cString: ccurl_easy_strerror(code))
    }()
}
