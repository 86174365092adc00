import Foundation
import ShareDaemonKit

exit(
    await ShareDaemonProgram.main(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
