// Entry point: parse `--seconds N`, run the benchmark, print its report.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
var seconds = 3.0
if let index = arguments.firstIndex(of: "--seconds"), arguments.indices.contains(index + 1),
    let value = Double(arguments[index + 1]), value > 0
{
    seconds = value
}
do {
    try DPoPBenchmark(seconds: seconds).run()
} catch {
    FileHandle.standardError.write(Data("dpop-benchmark: \(error)\n".utf8))
    exit(1)
}
