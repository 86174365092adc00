// Entry point: parses the command line and runs the benchmark.
import BenchmarkSupport
import Foundation

do {
    try SmallShareBenchmark(options: try Options(Array(CommandLine.arguments.dropFirst()))).run()
} catch let error as Arguments.UsageError {
    FileHandle.standardError.write(Data("small-share-benchmark: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("small-share-benchmark: \(error)\n".utf8))
    exit(1)
}
