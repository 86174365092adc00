import FuzzSupport
import ShareInbox

/// One input: the bytes of a `manifest.json` (the shared container is
/// writable by every component, so a manifest is hostile input). The decoder
/// must return a manifest or throw; a trap or sanitizer report is a finding.
/// A decoded manifest must also survive encoding and decoding again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let manifest = try? InboxManifestCodec.decode(fuzzBytes(data, size)) else { return 0 }
    if let encoded = try? InboxManifestCodec.encode(manifest) {
        guard (try? InboxManifestCodec.decode(encoded)) == manifest else {
            fatalError("a decoded manifest did not survive encode and decode")
        }
    }
    return 0
}

@_cdecl("InboxManifestFuzzer_main")
func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc: argc, argv: argv, target: fuzz)
}
