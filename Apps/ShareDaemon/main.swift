import AppSupport
import Foundation
import ShareDaemonKit

// Not a plain `exit`: work on other threads stops first (AppSupport's ProgramExit).
ProgramExit.exit(
    await ShareDaemonProgram.main(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
