/// The picture size a coded image's own stream declares: what the decoder
/// (libde265 for HEVC, dav1d for AV1) allocates its picture for, whatever
/// the HEIF file's `ispe` says. Read from the parameter sets (an HEVC
/// sequence parameter set, an AV1 sequence header) before anything is
/// decoded, so a stream that claims more pixels than its container is
/// refused like a container that claims too many.
enum CodedImageSize {
    /// The HEVC NAL unit type of a sequence parameter set.
    static let hevcSequenceParameterSet = 33
    /// The AV1 OBU type of a sequence header.
    static let av1SequenceHeader = 1

    /// The picture size of an HEVC sequence parameter set NAL unit (its
    /// two-byte header included), as libde265 reads it; nil when the bits
    /// end early or a value is out of the range libde265 accepts.
    static func hevc(sequenceParameterSet nal: [UInt8]) -> (width: Int, height: Int)? {
        guard nal.count > 2 else { return nil }
        var bits = BitReader(withoutEmulationPrevention(nal.dropFirst(2)))
        guard bits.skip(4), let subLayersMinus1 = bits.read(3), subLayersMinus1 < 7, bits.skip(1) else {
            return nil
        }
        // profile_tier_level: the general profile (88 bits) and level (8),
        // two flags a sub-layer, padding to eight, then each sub-layer's.
        guard bits.skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayersMinus1 {
            guard let profile = bits.read(1), let level = bits.read(1) else { return nil }
            present.append((profile == 1, level == 1))
        }
        if subLayersMinus1 > 0 { guard bits.skip(2 * (8 - subLayersMinus1)) else { return nil } }
        for layer in present {
            guard bits.skip((layer.profile ? 88 : 0) + (layer.level ? 8 : 0)) else { return nil }
        }
        guard let id = bits.readExpGolomb(), id < 16, let chroma = bits.readExpGolomb(), chroma <= 3 else {
            return nil
        }
        if chroma == 3 { guard bits.skip(1) else { return nil } }
        guard let width = bits.readExpGolomb(), let height = bits.readExpGolomb(), width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }

    /// The largest frame an AV1 sequence header OBU's payload allows
    /// (`max_frame_width_minus_1 + 1` by `max_frame_height_minus_1 + 1`);
    /// nil when the bits end early.
    static func av1(sequenceHeader payload: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
        var bits = BitReader(Array(payload))
        guard bits.skip(4), let reduced = bits.read(1) else { return nil }
        if reduced == 1 {
            guard bits.skip(5) else { return nil }
        } else {
            guard let timingInfo = bits.read(1) else { return nil }
            var decoderModel = 0
            var bufferDelayBits = 0
            if timingInfo == 1 {
                guard bits.skip(64), let equalInterval = bits.read(1) else { return nil }
                if equalInterval == 1 { guard bits.readUVLC() != nil else { return nil } }
                guard let model = bits.read(1) else { return nil }
                decoderModel = model
                if model == 1 {
                    guard let delayMinus1 = bits.read(5), bits.skip(32 + 5 + 5) else { return nil }
                    bufferDelayBits = delayMinus1 + 1
                }
            }
            guard let displayDelay = bits.read(1), let pointsMinus1 = bits.read(5) else { return nil }
            for _ in 0...pointsMinus1 {
                guard bits.skip(12), let level = bits.read(5) else { return nil }
                if level > 7 { guard bits.skip(1) else { return nil } }
                if decoderModel == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(2 * bufferDelayBits + 1) else { return nil } }
                }
                if displayDelay == 1 {
                    guard let present = bits.read(1) else { return nil }
                    if present == 1 { guard bits.skip(4) else { return nil } }
                }
            }
        }
        guard let widthBits = bits.read(4), let heightBits = bits.read(4),
            let width = bits.read(widthBits + 1), let height = bits.read(heightBits + 1)
        else { return nil }
        return (width + 1, height + 1)
    }

    /// The bytes of a NAL unit's payload with the emulation prevention
    /// bytes removed (`00 00 03` stands for `00 00`), as a decoder reads them.
    static func withoutEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}

/// Bits read most significant first, failing (nil, false) at the end
/// instead of reading zeros, so a cut header is never taken for a small size.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next `count` bits (at most 32) as a number.
    mutating func read(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | Int(bit)
            position += 1
        }
        return value
    }

    /// Skips `count` bits; false when fewer are left.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// An unsigned Exp-Golomb number (HEVC's `ue(v)`), with at most 20
    /// leading zeros as libde265 reads it.
    mutating func readExpGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros <= 20 else { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// AV1's `uvlc()`: 32 or more leading zeros stand for 2^32 - 1.
    mutating func readUVLC() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros < 40 else { return nil }
        }
        if zeros >= 32 { return (1 << 32) - 1 }
        guard let rest = read(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }
}
