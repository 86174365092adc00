import CShareKitGif
import ShareKitImageConversionInterface

/// GIF through giflib's record interface: the file is read through a
/// callback (`pread` from the descriptor, the deadline checked at every
/// read), the canvas size is checked against `maximumPixels` before a
/// pixel buffer exists, the one frame is decoded a row at a time into an
/// RGBA canvas (a transparent index, and the canvas the frame does not
/// cover, transparent: laid on white by the encoder), and the rest of the
/// file is walked to make sure there is no second frame: an animated GIF
/// is not converted, as an animated WebP is not. A GIF has no EXIF,
/// location or orientation.
///
/// Memory: the canvas at 4 bytes a pixel and one row of indices.
struct GIFDecoder {
    let source: SourceFile
    let options: JPEGConversionOptions

    /// What the read callback needs: giflib passes it back as `UserData`.
    final class Input {
        let source: SourceFile
        let checkpoint: @Sendable () -> ImageConversionStop?
        var offset: Int64 = 0
        var failure: ImageConversionError?

        init(source: SourceFile, checkpoint: @escaping @Sendable () -> ImageConversionStop?) {
            self.source = source
            self.checkpoint = checkpoint
        }
    }

    func convert(into destination: Int32) throws(ImageConversionError) -> JPEGConversion {
        let input = Input(source: source, checkpoint: options.checkpoint)
        var code: Int32 = 0
        let opened = withExtendedLifetime(input) {
            DGifOpen(Unmanaged.passUnretained(input).toOpaque(), Self.read, &code)
        }
        guard let gif = opened else { throw failure(input, code) }
        defer {
            var ignored: Int32 = 0
            _ = DGifCloseFile(gif, &ignored)
        }
        return try withExtendedLifetime(input) { () throws(ImageConversionError) -> JPEGConversion in
            let width = Int(gif.pointee.SWidth)
            let height = Int(gif.pointee.SHeight)
            guard width > 0, height > 0 else { throw .malformed("the GIF's canvas is empty") }
            guard width.multipliedReportingOverflow(by: height).partialValue <= options.maximumPixels else {
                throw .tooManyPixels(width: width, height: height, limit: options.maximumPixels)
            }
            let stride = width * 4
            let canvas = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
            defer { canvas.deallocate() }
            canvas.initialize(repeating: 0, count: stride * height)
            var transparent: Int?
            var frames = 0
            records: while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(gif, &record) == GIF_OK else { throw failure(input, gif.pointee.Error) }
                switch record {
                case IMAGE_DESC_RECORD_TYPE:
                    frames += 1
                    guard frames == 1 else {
                        throw .unsupported(
                            "an animated GIF has more than one picture and cannot be sent as a JPEG photo")
                    }
                    guard DGifGetImageDesc(gif) == GIF_OK else { throw failure(input, gif.pointee.Error) }
                    try decodeFrame(
                        gif, input: input, into: canvas, width: width, height: height, transparent: transparent)
                case EXTENSION_RECORD_TYPE:
                    var function: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(gif, &function, &block) == GIF_OK else {
                        throw failure(input, gif.pointee.Error)
                    }
                    // A graphic control extension: flags, delay (2), transparent index.
                    if function == GRAPHICS_EXT_FUNC_CODE, frames == 0, let block, block[0] >= 4 {
                        transparent = block[1] & 1 == 1 ? Int(block[4]) : nil
                    }
                    while block != nil {
                        guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                            throw failure(input, gif.pointee.Error)
                        }
                    }
                case TERMINATE_RECORD_TYPE:
                    break records
                default:
                    throw .malformed("the GIF has a record giflib does not know")
                }
            }
            guard frames == 1 else { throw .malformed("the GIF has no picture") }
            let raster = Raster(base: canvas, width: width, height: height, stride: stride, layout: .rgba)
            return try JPEGEncoding(options: options, destination: destination)
                .encode(raster, orientation: Orientation(exif: 1), metadata: PhotoMetadata())
        }
    }

    /// Decodes the current frame onto the canvas, row by row (interlaced
    /// frames in their four passes).
    private func decodeFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, input: Input, into canvas: UnsafeMutablePointer<UInt8>, width: Int,
        height: Int, transparent: Int?
    ) throws(ImageConversionError) {
        let frame = gif.pointee.Image
        let (left, top) = (Int(frame.Left), Int(frame.Top))
        let (frameWidth, frameHeight) = (Int(frame.Width), Int(frame.Height))
        guard frameWidth > 0, frameHeight > 0,
            frameWidth.multipliedReportingOverflow(by: frameHeight).partialValue <= options.maximumPixels
        else { throw .tooManyPixels(width: frameWidth, height: frameHeight, limit: options.maximumPixels) }
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap else {
            throw .malformed("the GIF has no colour table")
        }
        let colours = Int(map.pointee.ColorCount)
        var line = [GifPixelType](repeating: 0, count: frameWidth)
        let passes: [(start: Int, step: Int)] = frame.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in passes {
            for row in Swift.stride(from: pass.start, to: frameHeight, by: pass.step) {
                if let stop = options.checkpoint() { throw .stopped(stop) }
                guard DGifGetLine(gif, &line, Int32(frameWidth)) == GIF_OK else {
                    throw failure(input, gif.pointee.Error)
                }
                let y = top + row
                guard y < height else { continue }
                for x in 0..<frameWidth where left + x < width {
                    let index = Int(line[x])
                    guard index != transparent, index < colours else { continue }
                    let colour = map.pointee.Colors[index]
                    let at = y * width * 4 + (left + x) * 4
                    canvas[at] = colour.Red
                    canvas[at + 1] = colour.Green
                    canvas[at + 2] = colour.Blue
                    canvas[at + 3] = 255
                }
            }
        }
    }

    /// The error for a giflib failure: the callback's own (I/O, the
    /// checkpoint) first, else giflib's message.
    private func failure(_ input: Input, _ code: Int32) -> ImageConversionError {
        if let failure = input.failure { return failure }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        return .malformed("giflib: \(message)")
    }

    /// giflib's read callback: up to `count` bytes at the input's offset.
    private static let read: InputFunc = { gif, buffer, count in
        guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
        let input = Unmanaged<Input>.fromOpaque(user).takeUnretainedValue()
        if let stop = input.checkpoint() {
            input.failure = .stopped(stop)
            return 0
        }
        do throws(ImageConversionError) {
            let done = try input.source.read(
                into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(count)), at: input.offset)
            input.offset += Int64(done)
            return Int32(done)
        } catch {
            input.failure = error
            return 0
        }
    }
}
