import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface

/// `lock-hold <locks dir> <name>`: takes the named lock, prints `locked`,
/// holds it until a line (or end of file) arrives on standard input, then
/// prints `released` after letting it go. Tests synchronise on those lines.
func lockHoldCommand(_ arguments: [String]) throws {
    let args = HelperArguments(arguments, usage: "lock-hold <locks dir> <name>")
    let locks = ContainerLock(directory: try args.string(0))
    try locks.withExclusiveLock(named: try args.string(1)) {
        printFlushed("locked")
        _ = readLine()
    }
    printFlushed("released")
}
