import Foundation
import ShareServerKit

exit(await ShareServerProgram.main(Array(CommandLine.arguments.dropFirst())))
