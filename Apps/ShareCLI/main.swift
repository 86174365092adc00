import ShareKitAppSupport
import ShareKitCLIKit

let status = await ShareCLI.main(Array(CommandLine.arguments.dropFirst()))
// Ctrl-C's code: the command returned as soon as the share was kept (or
// removed), and its steps may still run, waiting for the network; ending
// at once leaves them as they are, as the signal itself would.
if status == ExitCode.cancelled.rawValue { ProgramExit.interrupted(status) }
// Not a plain `exit`: work on other threads stops first (AppSupport's ProgramExit).
ProgramExit.exit(status)
