/// The helper's commands by name. Add a command by adding an entry here and
/// a file with its function.
nonisolated(unsafe) let helperCommands: [String: ([String]) throws -> Void] = [
    "echo": { args in print(args.joined(separator: " ")) },
]
