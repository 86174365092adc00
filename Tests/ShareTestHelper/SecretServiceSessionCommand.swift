import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `secret-service-session`: runs `dbus-run-session -- ShareTestHelper
/// secret-service-roundtrip` the way a login shell would, prints its output
/// and exits with its status (77: skipped).
///
/// Why not spawn `dbus-run-session` from the test directly: a process the
/// test runner starts through Foundation inherits a signal mask with SIGTERM
/// blocked, so the session bus ignores the SIGTERM that `dbus-run-session`
/// sends it at the end, lives on holding the test's output pipes, and the
/// test never sees end of file. Here the child gets an empty signal mask and
/// default handlers, its output goes to a file, it runs in its own process
/// group that is killed afterwards (anything that outlived the session), and
/// a deadline kills the group if the round trip hangs (a keyring prompt, say).
func secretServiceSessionCommand(_ arguments: [String]) throws {
    let environment = ProcessInfo.processInfo.environment
    let path = environment["PATH"] ?? "/usr/bin:/bin"
    guard
        let runSession = path.split(separator: ":").map({ "\($0)/dbus-run-session" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else {
        printFlushed("skip: dbus-run-session not found (Debian package dbus-daemon)")
        exit(77)
    }
    let logPath = NSTemporaryDirectory() + "/sharekit-session-\(getpid()).log"
    let logFD = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard logFD >= 0 else { throw HelperFailure("cannot create \(logPath) (errno \(errno))") }
    defer { unlink(logPath) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, logFD, 1)
    posix_spawn_file_actions_adddup2(&actions, logFD, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let helper =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    let words: [String] = [runSession, "--", helper, "secret-service-roundtrip"]
    var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, runSession, &actions, &attributes, &argv, environ)
    close(logFD)
    guard spawned == 0 else { throw HelperFailure("cannot run \(runSession) (error \(spawned))") }

    // The deadline: a hung round trip must fail the test, not hang it.
    let group = pid
    let deadline = DispatchWorkItem { kill(-group, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: deadline)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    deadline.cancel()
    // Whatever outlived the session (a bus that ignored SIGTERM) goes now.
    kill(-group, SIGKILL)

    print((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "", terminator: "")
    // exit() below skips `defer`, so the log goes now.
    unlink(logPath)
    let signal = status & 0x7F
    if signal != 0 {
        printFlushed(
            "dbus-run-session was killed by signal \(signal)\(signal == SIGKILL ? " (deadline of 120 s passed)" : "")")
        exit(1)
    }
    fflush(nil)
    exit((status >> 8) & 0xFF)
}
