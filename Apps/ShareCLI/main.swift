import Foundation
import ShareCLIKit

exit(await ShareCLI.main(Array(CommandLine.arguments.dropFirst())))
