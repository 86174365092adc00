// Pictures for the tests of photo conversion, made and read back by
// independent means: PNG and TIFF written here byte by byte, JPEGs decoded
// by djpeg, metadata read and written by exiftool.
public import Foundation

/// The programs that make and read the test files, each from a Debian
/// package that `.ci/run` installs; a test that needs a missing one is
/// skipped, saying which package to install.
public enum TestTool {
    /// The program's path on the PATH, or nil.
    public static func path(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether every named program is on the PATH.
    public static func available(_ names: String...) -> Bool { names.allSatisfy { path($0) != nil } }

    /// Runs a tool; a failure is an error naming it and what it said.
    /// - Returns: its standard output.
    /// - Throws: ``TestPictureError`` when it is missing or fails.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String]) throws -> String {
        guard let path = path(name) else { throw TestPictureError("\(name) is not installed") }
        let result = try runProcess(path, arguments)
        guard result.status == 0 else { throw TestPictureError("\(name) \(arguments) failed: \(result.stderr)") }
        return result.stdout
    }
}

/// A test picture could not be made or read back.
public struct TestPictureError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// Makes an error.
    public init(_ description: String) { self.description = description }
}

/// An RGB colour with the tolerance a JPEG round trip needs.
public struct Colour: Equatable, Sendable, CustomStringConvertible {
    /// Red, 0 to 255.
    public let r: Int
    /// Green, 0 to 255.
    public let g: Int
    /// Blue, 0 to 255.
    public let b: Int

    /// Makes a colour.
    public init(r: Int, g: Int, b: Int) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Pure red.
    public static let red = Colour(r: 255, g: 0, b: 0)
    /// Pure green.
    public static let green = Colour(r: 0, g: 255, b: 0)
    /// Pure blue.
    public static let blue = Colour(r: 0, g: 0, b: 255)
    /// Yellow.
    public static let yellow = Colour(r: 255, g: 255, b: 0)
    /// White.
    public static let white = Colour(r: 255, g: 255, b: 255)

    /// Whether two colours differ by at most what JPEG compression changes.
    public func isClose(to other: Colour) -> Bool {
        abs(r - other.r) <= 40 && abs(g - other.g) <= 40 && abs(b - other.b) <= 40
    }

    /// `(r, g, b)`.
    public var description: String { "(\(r), \(g), \(b))" }
}

/// The test picture: four quadrants of different colours, so every one of
/// the eight orientations gives a different picture. Stored as 64 × 32.
public struct QuadrantPicture: Sendable {
    /// Width in pixels (as stored).
    public var width = 64
    /// Height in pixels (as stored).
    public var height = 32
    /// Top-left, top-right, bottom-left, bottom-right as stored.
    public var quadrants: [Colour] = [.red, .green, .blue, .yellow]
    /// When set, the right half is fully transparent (alpha 0).
    public var transparentRightHalf = false

    /// The 64 × 32 picture.
    public init() {}

    /// The colour at a stored pixel.
    public func colour(x: Int, y: Int) -> Colour {
        quadrants[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
    }

    /// The alpha of a stored column.
    public func alpha(x: Int) -> UInt8 { transparentRightHalf && x >= width / 2 ? 0 : 255 }

    /// How the picture looks once `orientation` (EXIF 1...8) is applied, as
    /// quadrant colours of the upright picture: TL, TR, BL, BR. Worked out
    /// from the definition of each value (where the stored first row and
    /// first column end up), independently of the code under test.
    public func upright(orientation: Int) -> [Colour] {
        let (tl, tr, bl, br) = (quadrants[0], quadrants[1], quadrants[2], quadrants[3])
        switch orientation {
        case 2: return [tr, tl, br, bl]  // mirrored left-right
        case 3: return [br, bl, tr, tl]  // turned 180°
        case 4: return [bl, br, tl, tr]  // mirrored top-bottom
        case 5: return [tl, bl, tr, br]  // transposed
        case 6: return [bl, tl, br, tr]  // turned 90° clockwise
        case 7: return [br, tr, bl, tl]  // transversed
        case 8: return [tr, br, tl, bl]  // turned 90° counter-clockwise
        default: return quadrants
        }
    }

    /// An 8-bit PNG (RGB, or RGBA when transparent), written here with
    /// stored (uncompressed) deflate blocks: heif-enc and cwebp read it.
    public func png() -> [UInt8] {
        let channels = transparentRightHalf ? 4 : 3
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                let c = colour(x: x, y: y)
                raw += [UInt8(c.r), UInt8(c.g), UInt8(c.b)]
                if channels == 4 { raw.append(alpha(x: x)) }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let last: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        zlib += Self.bigEndian(Self.adler32(raw))
        var header = Self.bigEndian(UInt32(width)) + Self.bigEndian(UInt32(height))
        header += [8, channels == 4 ? 6 : 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.chunk("IHDR", header)
            + Self.chunk("IDAT", zlib) + Self.chunk("IEND", [])
    }

    /// A binary PPM (`P6`), the picture without alpha: what cjpeg reads.
    public func ppm() -> [UInt8] {
        var bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x: x, y: y)
                bytes += [UInt8(c.r), UInt8(c.g), UInt8(c.b)]
            }
        }
        return bytes
    }

    /// A GIF of the picture (GIF89a, one frame, a palette of the four
    /// colours, the right half transparent when ``transparentRightHalf``
    /// is set), written here: its LZW data sends a clear code before the
    /// code width would grow, so it needs no compressor.
    /// - Parameter frames: how many copies of the frame (2 or more is an animation).
    public func gif(frames: Int = 1) -> [UInt8] {
        let palette: [Colour] = quadrants + [.white]
        var out = Array("GIF89a".utf8)
        out += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        // A global table of 8 entries (2^(2+1)), background 4.
        out += [0xF2, 4, 0]
        for index in 0..<8 {
            let c = index < palette.count ? palette[index] : .white
            out += [UInt8(c.r), UInt8(c.g), UInt8(c.b)]
        }
        if frames > 1 { out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
        for _ in 0..<frames {
            // A graphic control extension: index 4 transparent when asked for.
            out += [0x21, 0xF9, 4, transparentRightHalf ? 1 : 0, 10, 0, 4, 0]
            out += [
                0x2C, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0,
            ]
            var indices: [Int] = []
            for y in 0..<height {
                for x in 0..<width {
                    indices.append(
                        alpha(x: x) == 0 ? 4 : (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1))
                }
            }
            // Minimum code size 3: codes of 4 bits, clear 8, end 9; a clear
            // after every 6 pixels keeps the next free code below 16.
            var codes: [Int] = []
            for (n, index) in indices.enumerated() {
                if n % 6 == 0 { codes.append(8) }
                codes.append(index)
            }
            codes.append(9)
            var data: [UInt8] = []
            var accumulator = 0
            var bits = 0
            for code in codes {
                accumulator |= code << bits
                bits += 4
                while bits >= 8 {
                    data.append(UInt8(accumulator & 0xFF))
                    accumulator >>= 8
                    bits -= 8
                }
            }
            if bits > 0 { data.append(UInt8(accumulator & 0xFF)) }
            out.append(3)
            var offset = 0
            while offset < data.count {
                let count = min(255, data.count - offset)
                out.append(UInt8(count))
                out += data[offset..<(offset + count)]
                offset += count
            }
            out.append(0)
        }
        return out + [0x3B]
    }

    /// An uncompressed little-endian TIFF, RGB, `rowsPerStrip` rows a strip,
    /// with an Orientation tag when `orientation` is given. `claimedWidth`
    /// and `claimedHeight` write other dimensions than the pixels (a bomb);
    /// `extraEntries` are added as given (tag, type, count, value), a value of
    /// `UInt32.max` standing for the directory's own offset (a loop).
    public func tiff(
        orientation: Int? = nil, rowsPerStrip: Int = 8, claimedWidth: Int? = nil, claimedHeight: Int? = nil,
        extraEntries: [(UInt16, UInt16, UInt32, UInt32)] = []
    ) -> [UInt8] {
        let strips = (height + rowsPerStrip - 1) / rowsPerStrip
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x: x, y: y)
                pixels += [UInt8(c.r), UInt8(c.g), UInt8(c.b)]
            }
        }
        // Layout: header, pixels, then the arrays, then the directory.
        let pixelStart = 8
        var extra: [UInt8] = []
        let extraStart = pixelStart + pixels.count
        func place(_ bytes: [UInt8]) -> UInt32 {
            let at = UInt32(extraStart + extra.count)
            extra += bytes
            if extra.count % 2 == 1 { extra.append(0) }
            return at
        }
        let stripBytes = (0..<strips).map { min(rowsPerStrip, height - $0 * rowsPerStrip) * width * 3 }
        let offsets = (0..<strips).map { UInt32(pixelStart + $0 * rowsPerStrip * width * 3) }
        let bits = place([8, 0, 8, 0, 8, 0])
        let offsetsAt = strips == 1 ? offsets[0] : place(offsets.flatMap(Self.littleEndian))
        let countsAt = strips == 1 ? UInt32(stripBytes[0]) : place(stripBytes.flatMap { Self.littleEndian(UInt32($0)) })
        var entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (256, 4, 1, UInt32(claimedWidth ?? width)), (257, 4, 1, UInt32(claimedHeight ?? height)),
            (258, 3, 3, bits), (259, 3, 1, 1), (262, 3, 1, 2), (273, 4, UInt32(strips), offsetsAt),
            (277, 3, 1, 3), (278, 4, 1, UInt32(rowsPerStrip)), (279, 4, UInt32(strips), countsAt),
            (284, 3, 1, 1),
        ]
        if let orientation { entries.append((274, 3, 1, UInt32(orientation))) }
        let directoryAt = UInt32(extraStart + extra.count)
        entries += extraEntries.map { ($0.0, $0.1, $0.2, $0.3 == UInt32.max ? directoryAt : $0.3) }
        entries.sort { $0.0 < $1.0 }
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Self.littleEndian(directoryAt)
        out += pixels + extra
        out += [UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)]
        for (tag, type, count, value) in entries {
            out += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type & 0xFF), UInt8(type >> 8)]
            out += Self.littleEndian(count) + Self.littleEndian(value)
        }
        return out + [0, 0, 0, 0]
    }

    /// An uncompressed little-endian TIFF, RGB, stored as one tile of
    /// `tileSide` × `tileSide` pixels (at least the picture's size) with the
    /// picture in its top-left corner.
    public func tiledTIFF(tileSide: Int) -> [UInt8] {
        var tile = [UInt8](repeating: 0, count: tileSide * tileSide * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x: x, y: y)
                let at = (y * tileSide + x) * 3
                tile.replaceSubrange(at..<(at + 3), with: [UInt8(c.r), UInt8(c.g), UInt8(c.b)])
            }
        }
        // Layout: header, the tile, BitsPerSample's three values, the directory.
        let bitsAt = UInt32(8 + tile.count)
        let directoryAt = bitsAt + 6
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (256, 4, 1, UInt32(width)), (257, 4, 1, UInt32(height)), (258, 3, 3, bitsAt), (259, 3, 1, 1),
            (262, 3, 1, 2), (277, 3, 1, 3), (284, 3, 1, 1), (322, 4, 1, UInt32(tileSide)),
            (323, 4, 1, UInt32(tileSide)), (324, 4, 1, 8), (325, 4, 1, UInt32(tile.count)),
        ]
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Self.littleEndian(directoryAt) + tile + [8, 0, 8, 0, 8, 0]
        out += [UInt8(entries.count), 0]
        for (tag, type, count, value) in entries {
            out += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type & 0xFF), UInt8(type >> 8)]
            out += Self.littleEndian(count) + Self.littleEndian(value)
        }
        return out + [0, 0, 0, 0]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// Four bytes, most significant first.
    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// Four bytes, least significant first.
    public static func littleEndian(_ value: UInt32) -> [UInt8] { bigEndian(value).reversed() }
}

/// A decoded JPEG, read back by djpeg (libjpeg-turbo-progs), not by the code under test.
public struct DecodedJPEG: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// RGB, row by row.
    public let pixels: [UInt8]

    /// Decodes the JPEG at `path` with djpeg into `scratch`.
    /// - Throws: ``TestPictureError`` when djpeg is missing or fails.
    public init(path: String, scratch: TemporaryDirectory) throws {
        let ppm = scratch.file("decoded-\(UUID().uuidString).ppm")
        try TestTool.run("djpeg", ["-ppm", "-outfile", ppm, path])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ppm)))
        // "P6\n<w> <h>\n255\n" then RGB.
        var fields: [String] = []
        var index = 0
        var current = ""
        while fields.count < 4, index < bytes.count {
            let c = bytes[index]
            index += 1
            if c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D {
                if !current.isEmpty { fields.append(current) }
                current = ""
            } else {
                current.append(Character(UnicodeScalar(c)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]) else {
            throw TestPictureError("djpeg wrote no PPM")
        }
        width = w
        height = h
        pixels = Array(bytes[index...])
    }

    /// The colour of a pixel.
    public func colour(x: Int, y: Int) -> Colour {
        let at = (y * width + x) * 3
        return Colour(r: Int(pixels[at]), g: Int(pixels[at + 1]), b: Int(pixels[at + 2]))
    }

    /// The colours at the centres of the four quadrants: TL, TR, BL, BR.
    public var quadrantCentres: [Colour] {
        [
            colour(x: width / 4, y: height / 4), colour(x: 3 * width / 4, y: height / 4),
            colour(x: width / 4, y: 3 * height / 4), colour(x: 3 * width / 4, y: 3 * height / 4),
        ]
    }
}

/// Metadata as exiftool (libimage-exiftool-perl) reads it: tag names with their group, numbers as numbers.
public enum ExifTool {
    /// One tag's value as `exiftool -j -n` writes it.
    public enum Value: Decodable, Equatable, Sendable {
        /// A number (`-n` writes every numeric tag as one).
        case number(Double)
        /// Text.
        case text(String)
        /// Anything else (a list); the tests only ask whether it is there.
        case other

        /// Decodes a number, a string or anything else.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError` when the input is not JSON.
        public init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else if let text = try? single.decode(String.self) {
                self = .text(text)
            } else {
                self = .other
            }
        }

        /// The number, if the tag is one.
        public var number: Double? {
            if case .number(let value) = self { return value }
            return nil
        }
    }

    /// Every tag of a file, named `Group:Tag` (`GPS:GPSLatitude`).
    /// - Throws: ``TestPictureError`` when exiftool is missing or fails, `DecodingError` when its output is not a list of objects.
    public static func tags(_ path: String) throws -> [String: Value] {
        let json = try TestTool.run("exiftool", ["-j", "-n", "-G1", path])
        return try JSONDecoder().decode([[String: Value]].self, from: Data(json.utf8)).first ?? [:]
    }

    /// Writes a camera, an orientation and a location (the Eiffel tower) into a file.
    /// - Throws: ``TestPictureError`` when exiftool is missing or fails.
    public static func tag(_ path: String, orientation: Int? = nil) throws {
        var arguments = [
            "-overwrite_original", "-n", "-Make=Example", "-Model=Phone 1", "-GPSLatitude=48.8584",
            "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E",
        ]
        if let orientation { arguments.append("-Orientation=\(orientation)") }
        try TestTool.run("exiftool", arguments + [path])
    }
}
