import ShareKitAppSupport
import ShareKitSheetKit

// Not a plain `exit`: work on other threads stops first (AppSupport's ProgramExit).
ProgramExit.exit(ShareSheetProgram.main(Array(CommandLine.arguments.dropFirst())))
