import Foundation
import ShareKitSharedState
import ShareKitSharedStateInterface

/// `state-increment <container> <count>`: increments the shared counter
/// `counters.push_display.count` `count` times, one atomic update each, then
/// prints `done <last value>`. Tests run several at once and expect no lost update.
func stateIncrementCommand(_ arguments: [String]) throws {
    let args = HelperArguments(arguments, usage: "state-increment <container> <count>")
    let container = try SharedContainerDirectory(directory: try args.string(0))
    var last: Int64 = 0
    for _ in 0..<(try args.integer(1)) {
        last = try container.state.increment(.displayCount)
    }
    print("done \(last)")
}
