// Entry point: parse the options, run the benchmark, print its report.
import BenchmarkSupport
import Foundation

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    try PostgresBenchmark(options: options).run()
} catch let error as Arguments.UsageError {
    FileHandle.standardError.write(Data("postgres-benchmark: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("postgres-benchmark: \(error)\n".utf8))
    exit(1)
}
