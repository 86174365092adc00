import CShareKitLazyLibrary

/// How every program of ShareKit ends: never with a plain `exit`.
///
/// `exit` tears the process down (OpenSSL's cleanup, the libraries'
/// destructors) while other threads may still be inside a library: libcurl's
/// start-up on a background thread crashed the programs on their way out
/// about once in 30 runs. Work on threads of its own registers with
/// `CLazyLibrary` (libcurl's start-up, the HTTP event loops), and the
/// programs end here, after that work has stopped; from then on no library
/// is opened (docs/adr/0019-libraries-loaded-on-first-use.md).
public enum ProgramExit {
    /// Ends the process with `status` once the work on other threads has
    /// stopped (the HTTP event loops close their connections): the end of
    /// `main`, after every task the program started was awaited.
    /// - Parameter status: the exit status.
    public static func exit(_ status: Int32) -> Never {
        lazy_library_exit(status)
    }

    /// Ends the process at once with `status` when it is interrupted while
    /// its work still runs (Ctrl-C in the middle of a share, after what was
    /// to be kept is on disk): a library's start-up in progress is waited
    /// for, standard output and error are flushed, and nothing is torn down
    /// under the work that is abandoned (`_exit`, as a signal ends a
    /// process). The HTTP event loops are not stopped: the interrupted flow
    /// would act on its cancelled requests in the moment before the end.
    /// - Parameter status: the exit status (130 for Ctrl-C).
    public static func interrupted(_ status: Int32) -> Never {
        lazy_library_exit_now(status)
    }
}
