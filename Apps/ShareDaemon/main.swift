import Foundation
import ShareKitAppSupport
import ShareKitDaemonKit

// The daemon runs on the concurrency pool; this thread waits for it and
// ends the process: at the status it returns, or at once when its stop
// overran the deadline it armed (a hung service).
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
switch ProgramRun.wait({ deadline in
    await ShareDaemonProgram.main(arguments, environment: environment, stopDeadline: deadline)
}) {
case .finished(let status):
    // Not a plain `exit`: work on other threads stops first (AppSupport's ProgramExit).
    ProgramExit.exit(status)
case .overdue:
    ProgramExit.interrupted(ExitCode.success.rawValue)
}
