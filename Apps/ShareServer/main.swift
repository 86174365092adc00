import ShareKitAppSupport
import ShareKitServerKit

// Not a plain `exit`: work on other threads stops first (AppSupport's ProgramExit).
ProgramExit.exit(await ShareServerProgram.main(Array(CommandLine.arguments.dropFirst())))
