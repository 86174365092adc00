import CShareKitImageCodecLoader
import ShareKitImageConversionInterface

/// The codec libraries a conversion needs, opened before its first call
/// into them. Nothing links the codecs (docs/adr/0019): a program maps them
/// only when it converts a photo, and a library that cannot be opened makes
/// that conversion fail with its reason instead of ending the program.
enum CodecLibraries {
    /// Opens each of `libraries` unless it is open.
    /// - Throws: ``ImageConversionError/unsupported(_:)`` naming the library
    ///   and the dynamic loader's reason when one cannot be opened.
    static func load(_ libraries: sk_codec_library...) throws(ImageConversionError) {
        for library in libraries {
            var message = [CChar](repeating: 0, count: 512)
            guard sk_codec_library_load(library, &message, message.count) == 0 else {
                let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw .unsupported(text)
            }
        }
    }
}
