import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts `share inbox clean` detached from this process: in a session of
/// its own (a terminal's hang-up or Ctrl-C for the command that started it
/// does not reach it), standard input, output and error on /dev/null. No
/// one waits for it to finish: a thread of this process reaps it if this
/// process lives that long (`share-sheet`), else whoever adopts it does
/// once this process exits (`share send`, which exits at once).
enum BackgroundCleaner {
    /// Starts the cleaner: the `share` program this process is, or the
    /// one installed beside it (`share-sheet` sends through `share send`'s
    /// code in its own process).
    /// - Parameter environment: its environment (the `SHAREKIT_*` variables
    ///   name the shared container it cleans).
    /// - Returns: false when it could not be started.
    static func start(environment: [String: String]) -> Bool {
        guard let executable = shareExecutable() else { return false }
        guard
            let pid = ChildProgram.spawn(
                [executable, "inbox", "clean"], environment: environment, outputToNull: true, newSession: true)
        else { return false }
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        return true
    }

    /// The running executable when it is `share`, else `share` in its
    /// folder; never a name looked up in PATH.
    static func shareExecutable() -> String? {
        #if os(Linux)
            guard let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            else { return nil }
            let url = URL(fileURLWithPath: running)
            if url.lastPathComponent == "share" { return running }
            let sibling = url.deletingLastPathComponent().appendingPathComponent("share").path
            return access(sibling, X_OK) == 0 ? sibling : nil
        #else
            return nil
        #endif
    }
}
