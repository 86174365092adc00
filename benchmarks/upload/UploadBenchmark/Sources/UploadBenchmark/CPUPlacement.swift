import Glibc

/// Where the uploading side and the sink run. On a small machine the
/// scheduler sometimes puts uploader and sink on one core (the loopback
/// copy then stays in that core's cache) and sometimes on two: the same
/// `curl -T` of 512 MiB then takes 0.2 s or 0.5 s. Pinning the uploading
/// side (this process and its curl children) to one core and the sink to
/// another makes runs comparable. `sched_setaffinity` is not visible from
/// Swift here, so the pinning is done by `taskset`: this program re-runs
/// itself under `taskset -c 0`, and starts the sink under `taskset -c 1`.
enum CPUPlacement {
    /// The environment variable that marks the re-run under `taskset`.
    static let pinnedMarker = "UPLOAD_BENCHMARK_PINNED"
    static let taskset = "/usr/bin/taskset"
    /// The core of the uploading side.
    static let clientCore = "0"
    /// The core of the sink.
    static let sinkCore = "1"

    /// Whether pinning is possible: two cores and `taskset`.
    static var canPin: Bool {
        sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 && access(taskset, X_OK) == 0
    }

    /// Whether this process already runs pinned.
    static var isPinned: Bool { getenv(pinnedMarker) != nil }

    /// Replaces this process by itself under `taskset -c 0`; returns only
    /// when that cannot be done.
    /// - Parameters:
    ///   - executable: this program's path.
    ///   - arguments: its arguments.
    static func rerunPinned(executable: String, arguments: [String]) {
        setenv(pinnedMarker, "1", 1)
        let argv: [UnsafeMutablePointer<CChar>?] =
            ([taskset, "-c", clientCore, executable] + arguments).map { strdup($0) } + [nil]
        execv(taskset, argv)
    }
}
