// Entry point: `--child` runs one measured upload (the fresh process the
// benchmark starts for each size); anything else runs the benchmark.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child" {
        try await ChildUpload(Array(arguments.dropFirst())).run()
    } else {
        try await UploadMemoryBenchmark(options: try Options(arguments)).run()
    }
} catch let error as Options.UsageError {
    FileHandle.standardError.write(Data("upload-memory-benchmark: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("upload-memory-benchmark: \(error)\n".utf8))
    exit(1)
}
