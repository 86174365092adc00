// Entry point: `--sink` runs the discarding sink (the child process the
// benchmark starts); anything else runs the benchmark. The work lives in
// other files: a closure written here would be main-actor isolated, and
// libmicrohttpd calls the sink from its own threads, where the runtime traps
// on a main-actor closure (docs/adr/0002-http-server-engine.md).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--sink" {
        try SinkServer.run()
    } else {
        let options = try Options(arguments)
        if options.pin, CPUPlacement.canPin, !CPUPlacement.isPinned {
            CPUPlacement.rerunPinned(executable: UploadBenchmark.executablePath, arguments: arguments)
        }
        try await UploadBenchmark(options: options).run()
    }
} catch let error as Options.UsageError {
    FileHandle.standardError.write(Data("upload-benchmark: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("upload-benchmark: \(error)\n".utf8))
    exit(1)
}
