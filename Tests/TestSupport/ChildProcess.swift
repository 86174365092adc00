import Foundation

/// Finds the programs this package builds (the apps and `ShareTestHelper`),
/// so tests run them as separate processes the way a person runs them.
public enum BuiltProducts {
    /// The build directory that holds the test binary and the executables.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["SHAREKIT_BUILD_DIR"] { return override }
        // The test runner lives in the build directory (…/debug/ShareKitPackageTests.xctest);
        // executables built for the tests sit next to it.
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.path != "/" {
            if FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("ShareTestHelper").path) {
                return dir.path
            }
            dir = dir.deletingLastPathComponent()
        }
        return exe.deletingLastPathComponent().path
    }

    /// The path of a built executable.
    public static func path(_ name: String) -> String { directory + "/" + name }
}

/// The outcome of a finished child process.
public struct ProcessResult: Sendable {
    /// The exit status (or 128 + signal number when killed).
    public let status: Int32
    /// Everything it wrote to standard output.
    public let stdout: String
    /// Everything it wrote to standard error.
    public let stderr: String
}

/// Runs a program to completion and collects its output.
/// - Parameters:
///   - executable: the program's path.
///   - arguments: its arguments.
///   - environment: extra environment variables (merged over this process's).
///   - stdin: bytes written to its standard input, then closed.
/// - Throws: when the program cannot be started.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let outPipe = Pipe()
    let errPipe = Pipe()
    let inPipe = Pipe()
    process.standardOutput = outPipe
    process.standardError = errPipe
    process.standardInput = inPipe
    try process.run()
    if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? inPipe.fileHandleForWriting.close()
    // Read both pipes concurrently so a chatty child never blocks on a full pipe.
    let errData = LockedData()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData.set(errPipe.fileHandleForReading.readDataToEndOfFile())
        group.leave()
    }
    let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let status =
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return ProcessResult(
        status: status, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData.get(), as: UTF8.self))
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) {
        lock.lock()
        data = d
        lock.unlock()
    }
    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
