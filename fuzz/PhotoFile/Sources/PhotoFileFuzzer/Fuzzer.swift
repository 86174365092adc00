import FuzzSupport
import ShareKitImageConversionInterface

@testable import ShareKitImageConversion

#if canImport(Glibc)
    import Glibc
#endif

/// One input: the bytes of a photo file (HEIC, AVIF, WebP, TIFF, PNG, GIF,
/// JPEG or anything else), written to a file and converted into JPEG with
/// a 1-megapixel limit (so a large but valid picture does not slow the run
/// down), then copied without its metadata (a JPEG or PNG sent as it is).
/// The converter must return a JPEG or throw an `ImageConversionError`, the
/// metadata removal a file of the input's type or an error; a trap or
/// sanitizer report is a finding, and so is a "JPEG" that does not start
/// with FF D8. An input of odd length is converted with a band budget of
/// 4 KiB (through `@testable import`, which debug builds allow), so that
/// the decoders that work in bands of rows, columns or tiles take many
/// passes over small hostile pictures too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (source, destination) = files
    guard ftruncate(source, 0) == 0, ftruncate(destination, 0) == 0, pwrite(source, data, size, 0) == size else {
        fatalError("the scratch files cannot be written")
    }
    let options = JPEGConversionOptions(maximumPixels: 1 << 20)
    let converter = size % 2 == 1 ? JPEGImageConverter(bandBytes: 4096) : JPEGImageConverter()
    if let result = try? converter.convertToJPEG(
        source: source, destination: destination, options: options)
    {
        var head: [UInt8] = [0, 0]
        guard result.size >= 2, pread(destination, &head, 2, 0) == 2, head == [0xFF, 0xD8] else {
            fatalError("a conversion reported success without a JPEG")
        }
    }
    guard ftruncate(destination, 0) == 0 else { fatalError("the scratch file cannot be truncated") }
    if let removal = try? JPEGImageConverter().removeMetadata(
        source: source, destination: destination, options: options)
    {
        var head: [UInt8] = [0, 0]
        guard removal.size >= 2, pread(destination, &head, 2, 0) == 2, head == [data[0], data[1]] else {
            fatalError("a metadata removal reported success without a file of the input's type")
        }
    }
    return 0
}

/// Two scratch files, unlinked at once, reused by every input.
let files: (Int32, Int32) = {
    var made: [Int32] = []
    for _ in 0..<2 {
        var template = Array("/tmp/photo-fuzz-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { fatalError("no scratch file") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        made.append(fd)
    }
    return (made[0], made[1])
}()

@_cdecl("PhotoFileFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
