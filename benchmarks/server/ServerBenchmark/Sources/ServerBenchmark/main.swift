// Entry point: parse the options, run the benchmark, print its report.
import Foundation

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    try ServerBenchmark(options: options).run()
} catch let error as Options.UsageError {
    FileHandle.standardError.write(Data("server-benchmark: \(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("server-benchmark: \(error)\n".utf8))
    exit(1)
}
