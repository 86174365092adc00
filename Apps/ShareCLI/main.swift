import AppSupport
import ShareCLIKit

// Not a plain `exit`: work on other threads stops first (AppSupport's ProgramExit).
ProgramExit.exit(await ShareCLI.main(Array(CommandLine.arguments.dropFirst())))
