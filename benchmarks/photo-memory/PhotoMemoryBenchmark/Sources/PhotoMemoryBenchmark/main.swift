import BenchmarkSupport
import Foundation
import ShareKitImageConversion
import ShareKitImageConversionInterface
import ShareKitSystemTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `photo-memory-benchmark [--quick] [--dir DIR]` measures; `--convert PATH`
/// is the child it measures: one conversion of PATH into PATH.jpg; `--make
/// W H DIR` writes the pictures of one size. The measuring process never
/// holds a picture itself: a child started with `posix_spawn` shares its
/// parent's memory until `exec`, and Linux counts the parent's peak into
/// the child's `ru_maxrss`.
let usage = "usage: photo-memory-benchmark [--quick] [--dir DIR] | --convert PATH | --make W H DIR"

/// One conversion in this process; its exit status is the outcome.
func convertOnce(_ path: String) -> Int32 {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    let destination = open(path + ".jpg", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard source >= 0, destination >= 0 else { return 1 }
    do {
        let result = try JPEGImageConverter().convertToJPEG(
            source: source, destination: destination, options: JPEGConversionOptions())
        print("\(result.width) \(result.height) \(result.size)")
        return 0
    } catch {
        FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
        return 1
    }
}

/// The pictures measured: a name, the file, its pixels.
struct Sample {
    let name: String
    let path: String
    let pixels: Int
}

/// The pictures of one size, made by a child process.
func samples(width: Int, height: Int, in directory: String) throws -> [Sample] {
    let me = CommandLine.arguments[0]
    let pid = try Spawn.start(
        me, ["--make", String(width), String(height), directory], stdout: .file(directory + "/made.txt"),
        stderr: .inherit)
    guard Spawn.wait(pid) == 0 else { throw Spawn.Failure(description: "making \(width) × \(height) failed") }
    let lines = try String(contentsOfFile: directory + "/made.txt", encoding: .utf8).split(separator: "\n")
    return lines.compactMap { line in
        let fields = line.split(separator: "\t").map(String.init)
        return fields.count == 3 ? Sample(name: fields[0], path: fields[1], pixels: Int(fields[2]) ?? 0) : nil
    }
}

/// Makes the test picture at a size in every format the tools can make.
func make(width: Int, height: Int, in directory: String) throws -> [Sample] {
    var picture = QuadrantPicture()
    picture.width = width
    picture.height = height
    let pixels = width * height
    let base = "\(directory)/\(width)x\(height)"
    var made: [Sample] = []
    try Data(picture.tiff(rowsPerStrip: 16)).write(to: URL(fileURLWithPath: base + "-normal.tiff"))
    made.append(Sample(name: "TIFF, stored upright (streamed)", path: base + "-normal.tiff", pixels: pixels))
    try Data(picture.tiff(orientation: 6, rowsPerStrip: 16)).write(to: URL(fileURLWithPath: base + "-turned.tiff"))
    made.append(Sample(name: "TIFF, orientation 6 (held whole)", path: base + "-turned.tiff", pixels: pixels))
    let png = base + ".png"
    try Data(picture.png()).write(to: URL(fileURLWithPath: png))
    if TestTool.available("heif-enc") {
        try TestTool.run("heif-enc", ["-q", "80", "-o", base + ".heic", png])
        made.append(Sample(name: "HEIC", path: base + ".heic", pixels: pixels))
    }
    if TestTool.available("cwebp"), width <= 16_383, height <= 16_383 {
        try TestTool.run("cwebp", ["-quiet", png, "-o", base + ".webp"])
        made.append(Sample(name: "WebP", path: base + ".webp", pixels: pixels))
    }
    try? FileManager.default.removeItem(atPath: png)
    return made
}

/// Converts in a fresh process and returns its peak RSS in KiB.
func peakKiB(_ path: String) throws -> Int {
    let me = CommandLine.arguments[0]
    let pid = try Spawn.start(me, ["--convert", path], stdout: .file("/dev/null"), stderr: .inherit)
    let (status, usage) = Spawn.waitWithUsage(pid)
    guard status == 0 else { throw Spawn.Failure(description: "converting \(path) failed (\(status))") }
    return usage.ru_maxrss
}

func measure(quick: Bool, directory: String) throws {
    let sizes = quick ? [(1024, 768), (4032, 3024)] : [(1024, 768), (4032, 3024), (8064, 6048)]
    let reference = try samples(width: 64, height: 32, in: directory)
    let baseline = try reference.map { try peakKiB($0.path) }.max() ?? 0
    print("photo-memory: reference (64 × 32, every format): peak RSS \(baseline / 1024) MiB")
    print("| picture | megapixels | peak RSS | above the reference | bytes per pixel |")
    print("|---|---|---|---|---|")
    for (width, height) in sizes {
        for sample in try samples(width: width, height: height, in: directory) {
            let peak = try peakKiB(sample.path)
            let above = max(0, peak - baseline)
            let perPixel = Double(above) * 1024 / Double(sample.pixels)
            print(
                "| \(sample.name) | \(String(format: "%.1f", Double(sample.pixels) / 1e6)) | \(peak / 1024) MiB | "
                    + "\(above / 1024) MiB | \(String(format: "%.2f", perPixel)) |")
            try? FileManager.default.removeItem(atPath: sample.path)
            try? FileManager.default.removeItem(atPath: sample.path + ".jpg")
        }
    }
}

var arguments = Arguments(Array(CommandLine.arguments.dropFirst()), usage: usage)
var quick = false
var directory: String?
do {
    while let flag = arguments.next() {
        switch flag {
        case "--convert": exit(convertOnce(try arguments.value(flag)))
        case "--make":
            let width = Int(try arguments.value(flag)) ?? 0
            let height = Int(try arguments.value(flag)) ?? 0
            for sample in try make(width: width, height: height, in: try arguments.value(flag)) {
                print("\(sample.name)\t\(sample.path)\t\(sample.pixels)")
            }
            exit(0)
        case "--quick": quick = true
        case "--dir": directory = try arguments.value(flag)
        default: throw arguments.error(flag)
        }
    }
    let scratch = try directory ?? TemporaryDirectory(prefix: "photo-memory").path
    try measure(quick: quick, directory: scratch)
    if directory == nil { try? FileManager.default.removeItem(atPath: scratch) }
} catch let error as Arguments.UsageError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("photo-memory: \(error)\n".utf8))
    exit(1)
}
