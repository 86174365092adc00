import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts `share inbox clean` detached from this process: in a session of
/// its own (a terminal's hang-up or Ctrl-C for the command that started it
/// does not reach it), standard input, output and error on /dev/null, and
/// never waited for (it is reaped by whoever adopts it once this process
/// exits).
enum BackgroundCleaner {
    /// `POSIX_SPAWN_SETSID` of glibc's `<spawn.h>` (a GNU extension Swift's
    /// Glibc module leaves out): the child calls `setsid()` before it runs.
    private static let spawnSetSID: Int16 = 0x80

    /// Starts the cleaner: the `share` program this process is, or the
    /// one installed beside it (`share-sheet` sends through `share send`'s
    /// code in its own process).
    /// - Parameter environment: its environment (the `SHAREKIT_*` variables
    ///   name the shared container it cleans).
    /// - Returns: false when it could not be started.
    static func start(environment: [String: String]) -> Bool {
        guard let executable = shareExecutable() else { return false }
        return spawn([executable, "inbox", "clean"], environment: environment)
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

    private static func spawn(_ command: [String], environment: [String: String]) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, spawnSetSID)
        let arguments = command.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        return posix_spawn(&pid, command[0], &actions, &attributes, arguments, variables) == 0
    }
}
