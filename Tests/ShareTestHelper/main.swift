// sharekit-test-helper: small commands that tests run as separate processes
// (several writers at once, a process killed mid-write). Each command lives
// in its own file as a function registered in `commands`.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = helperCommands[name] else {
    FileHandle.standardError.write(
        Data("usage: ShareTestHelper <\(helperCommands.keys.sorted().joined(separator: "|"))> ...\n".utf8))
    exit(2)
}
do {
    try command(Array(arguments.dropFirst()))
    exit(0)
} catch {
    FileHandle.standardError.write(Data("ShareTestHelper \(name): \(error)\n".utf8))
    exit(1)
}
