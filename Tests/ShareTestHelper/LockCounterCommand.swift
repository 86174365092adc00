import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface

/// `lock-counter <locks dir> <name> <counter file> <count>`: `count` times,
/// under the named lock only, reads a number from a plain file, and rewrites
/// the file in place (truncate, then write) with the number plus one. The
/// file has no protection of its own, so several processes end with the exact
/// total only when the lock excludes them from each other.
func lockCounterCommand(_ arguments: [String]) throws {
    let args = HelperArguments(arguments, usage: "lock-counter <locks dir> <name> <counter file> <count>")
    let locks = ContainerLock(directory: try args.string(0))
    let name = try args.string(1)
    let path = try args.string(2)
    for _ in 0..<(try args.integer(3)) {
        try locks.withExclusiveLock(named: name) {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "0"
            guard let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw HelperFailure("counter file holds '\(text)', not a number")
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw HelperFailure("cannot open \(path)") }
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data("\(n + 1)\n".utf8))
        }
    }
    print("done")
}
