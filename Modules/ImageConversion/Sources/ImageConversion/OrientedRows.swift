import ShareKitImageConversionInterface

/// How the pixels of a decoded raster are laid out: 8 bits per sample.
enum PixelLayout: Sendable {
    /// R, G, B.
    case rgb
    /// R, G, B, A, the colour not multiplied by the alpha.
    case rgba
    /// R, G, B, A, the colour already multiplied by the alpha.
    case rgbaPremultiplied

    var bytesPerPixel: Int { self == .rgb ? 3 : 4 }
}

/// Decoded pixels in memory, as stored (before the orientation is applied).
struct Raster {
    let base: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    /// Bytes from one row to the next.
    let stride: Int
    let layout: PixelLayout
}

/// A rectangle of a stored image, in stored pixels.
struct Band: Equatable, Sendable {
    let x: Int
    let y: Int
    let width: Int
    let height: Int
}

/// The eight EXIF orientations as a mapping from an output pixel to a
/// stored one. The stored image is `width` × `height`; orientations 5 to 8
/// swap the axes (a photo taken with the phone upright, stored sideways).
struct Orientation: Hashable, Sendable {
    /// The EXIF value, 1 to 8 (1: as stored).
    let value: Int

    /// An EXIF value; anything outside 1...8 is read as 1 (as stored),
    /// which is what viewers do with a value they do not know.
    init(exif value: Int) { self.value = (1...8).contains(value) ? value : 1 }

    /// Whether the output's width is the stored height.
    var swapsAxes: Bool { value >= 5 }

    /// Whether each output row comes from one stored row, in order (so rows
    /// can be streamed as they are decoded): normal and mirrored.
    var keepsRowOrder: Bool { value == 1 || value == 2 }

    /// The parts of a `width` × `height` stored image, in the order whose
    /// output rows (each part emitted on its own under this orientation)
    /// are the JPEG's rows top to bottom: bands of `span` whole rows for
    /// the orientations that keep rows (top first for 1 and 2, bottom first
    /// for 3 and 4), bands of `span` whole columns for those that swap the
    /// axes (left first for 5 and 6, right first for 7 and 8). Every band
    /// but the last in stored order starts at a multiple of `span`.
    func bands(width: Int, height: Int, span: Int) -> [Band] {
        let length = swapsAxes ? width : height
        let step = max(1, span)
        var bands: [Band] = []
        var start = 0
        while start < length {
            let count = min(step, length - start)
            bands.append(
                swapsAxes
                    ? Band(x: start, y: 0, width: count, height: height)
                    : Band(x: 0, y: start, width: width, height: count))
            start += count
        }
        let reversed = value == 3 || value == 4 || value == 7 || value == 8
        return reversed ? bands.reversed() : bands
    }

    /// The output size for a stored size.
    func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where output row `row` starts in the stored image and how to step to
    /// the next pixel of that row, both as (x, y) in stored pixels.
    func walk(row: Int, width: Int, height: Int) -> (x: Int, y: Int, dx: Int, dy: Int) {
        switch value {
        case 2: return (width - 1, row, -1, 0)
        case 3: return (width - 1, height - 1 - row, -1, 0)
        case 4: return (0, height - 1 - row, 1, 0)
        case 5: return (row, 0, 0, 1)
        case 6: return (row, height - 1, 0, -1)
        case 7: return (width - 1 - row, height - 1, 0, -1)
        case 8: return (width - 1 - row, 0, 0, 1)
        default: return (0, row, 1, 0)
        }
    }
}

/// Turns stored pixels into the JPEG's RGB rows: the orientation applied,
/// a transparent pixel laid over white (a JPEG has no alpha). It holds one
/// batch of output rows, never a copy of the image.
struct RowEmitter {
    /// Output rows per call into the encoder.
    static let batchRows = 16

    let writer: JPEGWriter
    let checkpoint: @Sendable () -> ImageConversionStop?

    /// Emits every output row of `raster` under `orientation`.
    /// - Throws: ``ImageConversionError`` from the encoder or the checkpoint.
    func emit(_ raster: Raster, orientation: Orientation) throws(ImageConversionError) {
        let output = orientation.outputSize(width: raster.width, height: raster.height)
        if orientation.value == 1, raster.layout == .rgb {
            // Already what the encoder takes: rows straight from the raster.
            var row = 0
            while row < raster.height {
                try stopIfAsked()
                let count = min(Self.batchRows, raster.height - row)
                try writer.write(rows: raster.base + row * raster.stride, count: count, stride: raster.stride)
                row += count
            }
            return
        }
        let rowBytes = output.width * 3
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * Self.batchRows)
        defer { buffer.deallocate() }
        var row = 0
        while row < output.height {
            try stopIfAsked()
            let count = min(Self.batchRows, output.height - row)
            for index in 0..<count {
                fill(buffer + index * rowBytes, outputRow: row + index, width: output.width, raster, orientation)
            }
            try writer.write(rows: buffer, count: count, stride: rowBytes)
            row += count
        }
    }

    /// Asks the checkpoint.
    /// - Throws: ``ImageConversionError/stopped(_:)`` when it says to stop.
    func stopIfAsked() throws(ImageConversionError) {
        if let stop = checkpoint() { throw .stopped(stop) }
    }

    private func fill(
        _ out: UnsafeMutablePointer<UInt8>, outputRow: Int, width: Int, _ raster: Raster, _ orientation: Orientation
    ) {
        let bpp = raster.layout.bytesPerPixel
        let walk = orientation.walk(row: outputRow, width: raster.width, height: raster.height)
        var offset = walk.y * raster.stride + walk.x * bpp
        let step = walk.dy * raster.stride + walk.dx * bpp
        let source = raster.base
        switch raster.layout {
        case .rgb:
            for x in 0..<width {
                out[3 * x] = source[offset]
                out[3 * x + 1] = source[offset + 1]
                out[3 * x + 2] = source[offset + 2]
                offset += step
            }
        case .rgba:
            for x in 0..<width {
                let alpha = Int(source[offset + 3])
                let white = 255 * (255 - alpha) + 127
                for channel in 0..<3 {
                    out[3 * x + channel] = UInt8((Int(source[offset + channel]) * alpha + white) / 255)
                }
                offset += step
            }
        case .rgbaPremultiplied:
            for x in 0..<width {
                let white = 255 - Int(source[offset + 3])
                for channel in 0..<3 {
                    out[3 * x + channel] = UInt8(min(255, Int(source[offset + channel]) + white))
                }
                offset += step
            }
        }
    }
}
