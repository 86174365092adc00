import BenchmarkSupport
import Foundation
import ShareKitImageConversion
import ShareKitImageConversionInterface
import ShareKitSystemTesting

#if canImport(Glibc)
    import Glibc
#endif

/// `photo-memory-benchmark [--quick] [--pictures DIR]` measures; `--convert
/// PATH` is the child it measures: one conversion of PATH into PATH.jpg;
/// `--make W H DIR` writes the pictures of one size into DIR, keeping those
/// already there (so `--pictures` makes them once for every run). The
/// measuring process never holds a picture itself: a child started with
/// `posix_spawn` shares its parent's memory until `exec`, and Linux counts
/// the parent's peak into the child's `ru_maxrss`.
let usage = "usage: photo-memory-benchmark [--quick] [--pictures DIR] | --convert PATH | --make W H DIR"

/// The bound of the goals: the peak RSS of the whole converting process at 48 MP.
let goalMiB = 128

/// One conversion in this process; its exit status is the outcome.
func convertOnce(_ path: String) -> Int32 {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    let output = path + ".\(getpid()).jpg"
    let destination = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    defer { unlink(output) }
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

/// The pictures measured: a name, the goal it is measured for (at 48 MP), the file, its pixels.
struct Sample {
    let name: String
    let goal: String
    let path: String
    let pixels: Int
}

/// The pictures of one size, made by a child process.
func samples(width: Int, height: Int, in directory: String) throws -> [Sample] {
    let me = CommandLine.arguments[0]
    let list = directory + "/made-\(width)x\(height).txt"
    let pid = try Spawn.start(
        me, ["--make", String(width), String(height), directory], stdout: .file(list), stderr: .inherit)
    guard Spawn.wait(pid) == 0 else { throw Spawn.Failure(description: "making \(width) × \(height) failed") }
    let lines = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n")
    return lines.compactMap { line in
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return fields.count == 4
            ? Sample(name: fields[0], goal: fields[1], path: fields[2], pixels: Int(fields[3]) ?? 0) : nil
    }
}

/// The largest picture heif-enc codes as one image here (it takes about a
/// minute at 48 MP, and such a HEIC is still decoded whole).
let largestSingleHEIC = 13_000_000

/// Makes the test picture at a size in every format the tools can make,
/// unless the file is already there.
func make(width: Int, height: Int, in directory: String) throws -> [Sample] {
    var picture = QuadrantPicture()
    picture.width = width
    picture.height = height
    let pixels = width * height
    let base = "\(directory)/\(width)x\(height)"
    let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
    var made: [Sample] = []
    if !exists(base + "-normal.tiff") {
        try Data(picture.tiff(rowsPerStrip: 16)).write(to: URL(fileURLWithPath: base + "-normal.tiff"))
    }
    made.append(Sample(name: "TIFF, stored upright (rows)", goal: "", path: base + "-normal.tiff", pixels: pixels))
    if !exists(base + "-turned.tiff") {
        try Data(picture.tiff(orientation: 6, rowsPerStrip: 16)).write(to: URL(fileURLWithPath: base + "-turned.tiff"))
    }
    made.append(
        Sample(
            name: "TIFF, orientation 6 (bands of columns)", goal: "photo-rss-tiff-rotated", path: base + "-turned.tiff",
            pixels: pixels))
    let png = base + ".png"
    let needsPNG =
        (TestTool.available("cwebp") && !exists(base + ".webp"))
        || (TestTool.available("heif-enc") && pixels <= largestSingleHEIC && !exists(base + ".heic"))
    if needsPNG { try Data(picture.png()).write(to: URL(fileURLWithPath: png)) }
    defer { try? FileManager.default.removeItem(atPath: png) }
    // The 64 × 32 reference has no grid: its quadrants are smaller than a tile heif-enc codes at its size.
    if TestTool.available("heif-enc"), picture.gridTileSide >= 64 {
        if !exists(base + "-grid.heic") { try picture.heicGrid(to: base + "-grid.heic") }
        made.append(
            Sample(
                name: "HEIC, grid of \(picture.gridTileSide)-pixel tiles (as phones write it)", goal: "photo-rss-heic",
                path: base + "-grid.heic", pixels: pixels))
    }
    if TestTool.available("heif-enc") {
        if pixels <= largestSingleHEIC {
            if !exists(base + ".heic") { try TestTool.run("heif-enc", ["-q", "80", "-o", base + ".heic", png]) }
            made.append(
                Sample(
                    name: "HEIC, one coded image (heif-enc; decoded whole)", goal: "", path: base + ".heic",
                    pixels: pixels))
        }
    }
    if TestTool.available("cwebp"), width <= 16_383, height <= 16_383 {
        if !exists(base + ".webp") { try TestTool.run("cwebp", ["-quiet", png, "-o", base + ".webp"]) }
        made.append(Sample(name: "WebP (bands of rows)", goal: "photo-rss-webp", path: base + ".webp", pixels: pixels))
    }
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
    let goalSize = (8064, 6048)
    let sizes = quick ? [(1024, 768), goalSize] : [(1024, 768), (4032, 3024), goalSize]
    let reference = try samples(width: 64, height: 32, in: directory)
    let baseline = try reference.map { try peakKiB($0.path) }.max() ?? 0
    print("photo-memory: reference (64 × 32, every format): peak RSS \(baseline / 1024) MiB")
    print("| picture | megapixels | peak RSS | above the reference | bytes per pixel |")
    print("|---|---|---|---|---|")
    var goals: [(id: String, name: String, peak: Int)] = []
    for (width, height) in sizes {
        for sample in try samples(width: width, height: height, in: directory) {
            let peak = try peakKiB(sample.path)
            let above = max(0, peak - baseline)
            let perPixel = Double(above) * 1024 / Double(sample.pixels)
            print(
                "| \(sample.name) | \(String(format: "%.1f", Double(sample.pixels) / 1e6)) | \(peak / 1024) MiB | "
                    + "\(above / 1024) MiB | \(String(format: "%.2f", perPixel)) |")
            if (width, height) == goalSize, !sample.goal.isEmpty { goals.append((sample.goal, sample.name, peak)) }
        }
    }
    for goal in goals {
        let value = Double(goal.peak) / 1024
        print(
            "GOAL \(goal.id) value=\(String(format: "%.1f", value))MiB <= \(goalMiB)MiB "
                + "\(value <= Double(goalMiB) ? "PASS" : "FAIL") -- peak RSS (wait4 ru_maxrss) of the whole process "
                + "converting a 48.8 MP \(goal.name) into JPEG at full size; a process converting 64 × 32 peaks at "
                + "\(baseline / 1024) MiB")
    }
}

var arguments = Arguments(Array(CommandLine.arguments.dropFirst()), usage: usage)
var quick = false
var pictures: String?
do {
    while let flag = arguments.next() {
        switch flag {
        case "--convert": exit(convertOnce(try arguments.value(flag)))
        case "--make":
            let width = Int(try arguments.value(flag)) ?? 0
            let height = Int(try arguments.value(flag)) ?? 0
            for sample in try make(width: width, height: height, in: try arguments.value(flag)) {
                print("\(sample.name)\t\(sample.goal)\t\(sample.path)\t\(sample.pixels)")
            }
            exit(0)
        case "--quick": quick = true
        case "--pictures", "--dir": pictures = try arguments.value(flag)
        default: throw arguments.error(flag)
        }
    }
    let scratch = try pictures ?? TemporaryDirectory(prefix: "photo-memory").path
    if pictures != nil { try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true) }
    try measure(quick: quick, directory: scratch)
    if pictures == nil { try? FileManager.default.removeItem(atPath: scratch) }
} catch let error as Arguments.UsageError {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("photo-memory: \(error)\n".utf8))
    exit(1)
}
