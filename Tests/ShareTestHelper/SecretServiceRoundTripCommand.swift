import Foundation
import ShareKitKeychainInterface
import ShareKitKeychainStore

/// `secret-service-roundtrip`: run inside `dbus-run-session`. Starts
/// `gnome-keyring-daemon --unlock` (the password on standard input makes and
/// unlocks the login keyring of `$XDG_DATA_HOME`), then writes, reads,
/// overwrites, lists and deletes items through the `secret-service` backend,
/// printing one `ok …` line per step and `secret-service round trip passed`.
///
/// Exits 77 after printing `skip: <reason>` when the machine cannot run a
/// keyring daemon; any failure after the daemon is up exits 1.
func secretServiceRoundTripCommand(_ arguments: [String]) throws {
    let environment = ProcessInfo.processInfo.environment
    guard let bus = environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else {
        skip("no D-Bus session bus (run me inside dbus-run-session)")
    }
    guard let daemon = findExecutable("gnome-keyring-daemon", path: environment["PATH"] ?? "") else {
        skip("gnome-keyring-daemon is not installed (Debian package gnome-keyring)")
    }
    try startKeyringDaemon(daemon)
    printFlushed("ok daemon started")

    let store = try KeychainStoreFactory.makeStore(backend: .secretService)
    let scope = "https://chat.example.com"
    let token = SecretItemKey(accessGroup: "test.group.a", service: "session.child", account: "alex", scope: scope)
    let deviceKey = SecretItemKey(accessGroup: "test.group.a", service: "dpop.device-key")
    let other = SecretItemKey(accessGroup: "test.group.b", service: "session.child", account: "alex", scope: scope)
    // Binary bytes with NUL and 0xFF prove the binary path (a C string would cut them).
    let first = SecretValue(bytes: [0x00, 0x01, 0xFF, 0x10] + Array("first-secret".utf8))
    let second = SecretValue(utf8: "second-secret")

    for key in [token, deviceKey, other] { try store.delete(key) }
    try store.write(first, for: token)
    try expect(try store.read(token) == first, "read after write returned another value")
    print("ok write/read binary value")
    try store.write(second, for: token)
    try expect(try store.read(token) == second, "read after overwrite returned another value")
    print("ok overwrite")
    try store.write(SecretValue(utf8: "device-key-bytes"), for: deviceKey)
    try store.write(SecretValue(utf8: "other-group"), for: other)
    try expect(try store.keys(accessGroup: "test.group.a") == [deviceKey, token], "group a lists other keys")
    try expect(try store.keys(accessGroup: "test.group.b") == [other], "group b lists other keys")
    print("ok list (access groups isolated)")
    try store.delete(token)
    try expect(try store.read(token) == nil, "deleted item still readable")
    try store.delete(token)
    try expect(try store.keys(accessGroup: "test.group.a") == [deviceKey], "listing after delete is wrong")
    try expect(try store.read(other) == SecretValue(utf8: "other-group"), "delete touched another group")
    print("ok delete (twice)")
    do {
        try store.write(SecretValue(bytes: Array(repeating: 1, count: 64 * 1024 + 1)), for: token)
        throw HelperFailure("an oversized value was accepted")
    } catch KeychainError.valueTooLarge {
        print("ok oversized value refused")
    }
    for key in [deviceKey, other] { try store.delete(key) }
    print("secret-service round trip passed")
}

/// Starts the keyring daemon the way a desktop login does: `--unlock` with
/// the password on standard input makes and unlocks the login keyring and
/// leaves the daemon running, then `--start --components=secrets` has it
/// claim `org.freedesktop.secrets` on the bus. Each call returns only once
/// its step is done, so the round trip never races the daemon's start (and
/// D-Bus activation of a second daemon is not needed). The daemon ends with
/// the session bus when `dbus-run-session` finishes.
private func startKeyringDaemon(_ executable: String) throws {
    for (arguments, input) in [
        (["--unlock", "--components=secrets", "--daemonize"], Array("sharekit-test-keyring-password".utf8)),
        (["--start", "--components=secrets"], []),
    ] {
        let (status, log) = try runToCompletion(executable, arguments, input: input)
        guard status == 0 else {
            skip("gnome-keyring-daemon \(arguments.joined(separator: " ")) failed (wait status \(status)): \(log)")
        }
    }
}

/// Runs a program that may leave a daemon behind and waits for it to exit.
///
/// Spawned with `posix_spawn` and reaped with `waitpid` rather than through
/// `Process`, whose exit monitoring did not notice the exit of
/// `gnome-keyring-daemon --daemonize`; output goes to a file, not a pipe,
/// because the daemon left behind keeps the descriptors open.
/// - Returns: the wait status (0 for exit status 0) and the program's output.
private func runToCompletion(_ executable: String, _ arguments: [String], input: [UInt8]) throws -> (Int32, String) {
    let logPath = NSTemporaryDirectory() + "/sharekit-keyring-\(getpid()).log"
    let logFD = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard logFD >= 0 else { throw HelperFailure("cannot create \(logPath) (errno \(errno))") }
    defer { unlink(logPath) }
    var pipeFDs: [Int32] = [0, 0]
    guard pipe(&pipeFDs) == 0 else { throw HelperFailure("pipe failed (errno \(errno))") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[0], 0)
    posix_spawn_file_actions_adddup2(&actions, logFD, 1)
    posix_spawn_file_actions_adddup2(&actions, logFD, 2)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
    var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
    close(pipeFDs[0])
    close(logFD)
    guard spawned == 0 else {
        close(pipeFDs[1])
        unlink(logPath)  // skip() exits, which skips `defer`
        skip("cannot run \(executable) (error \(spawned))")
    }
    _ = input.withUnsafeBytes { write(pipeFDs[1], $0.baseAddress, $0.count) }
    close(pipeFDs[1])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status, (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
}

private func findExecutable(_ name: String, path: String) -> String? {
    path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

private func expect(_ condition: Bool, _ message: String) throws {
    if !condition { throw HelperFailure(message) }
}

/// Prints why the command cannot run here and exits 77 (the conventional
/// "skipped" status).
private func skip(_ reason: String) -> Never {
    printFlushed("skip: \(reason)")
    exit(77)
}
