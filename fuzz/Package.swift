// swift-tools-version: 6.0
// The libFuzzer harnesses, one executable each, in one package so that
// `fuzz/run` builds the modules they share once (every target, the
// modules included, instrumented with -sanitize=fuzzer,address). Not part
// of the root package: `swift build` at the root does not build them. See
// fuzz/README.md.
import PackageDescription

let package = Package(
    name: "ShareKitFuzzers",
    dependencies: [
        .package(path: "../Interfaces/CryptoInterface"),
        .package(path: "../Interfaces/DPoPInterface"),
        .package(path: "../Interfaces/HTTPInterface"),
        .package(path: "../Interfaces/HTTPServerInterface"),
        .package(path: "../Interfaces/HTTPTypes"),
        .package(path: "../Interfaces/ImageConversionInterface"),
        .package(path: "../Interfaces/MessagesInterface"),
        .package(path: "../Interfaces/PushPreviewInterface"),
        .package(path: "../Interfaces/SQLInterface"),
        .package(path: "../Interfaces/ServerAPIInterface"),
        .package(path: "../Interfaces/ShareCore"),
        .package(path: "../Interfaces/TargetStoreInterface"),
        .package(path: "../Interfaces/UploadsInterface"),
        .package(path: "../Modules/DPoP"),
        .package(path: "../Modules/ImageConversion"),
        .package(path: "../Modules/Messages"),
        .package(path: "../Modules/OpenSSLCrypto"),
        .package(path: "../Modules/Outbox"),
        .package(path: "../Modules/PushPreview"),
        .package(path: "../Modules/ReferenceServer"),
        .package(path: "../Modules/SQLiteStore"),
        .package(path: "../Modules/Sessions"),
        .package(path: "../Modules/ShareInbox"),
        .package(path: "../Modules/TargetStore"),
        .package(path: "../Modules/Uploads"),
    ],
    targets: [
        // libFuzzer's driver and the harnesses' common helpers.
        .target(name: "FuzzSupport", path: "FuzzSupport/Sources/FuzzSupport"),
        // The inbox manifest decoder (InboxManifestCodec.decode) and the outbox's
        // record reader (OutboxSchema.read).
        .executableTarget(
            name: "InboxManifestFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "ShareKitInbox", package: "ShareInbox"),
                .product(name: "ShareKitOutbox", package: "Outbox"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
            ],
            path: "InboxManifest/Sources/InboxManifestFuzzer"
        ),
        // The push payload parser (PushPayloadParser.parse) and the preview decoder.
        .executableTarget(
            name: "PushPayloadFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "ShareKitPushPreview", package: "PushPreview"),
            ],
            path: "PushPayload/Sources/PushPayloadFuzzer"
        ),
        // The server's DPoP proof verifier (ES256ProofVerifier) over the real
        // OpenSSL provider; outside the root package, so it may join two modules.
        .executableTarget(
            name: "DPoPProofFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "ShareKitDPoP", package: "DPoP"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitDPoPInterfaceTesting", package: "DPoPInterface"),
                .product(name: "ShareKitCore", package: "ShareCore"),
            ],
            path: "DPoPProof/Sources/DPoPProofFuzzer"
        ),
        // The reference server's handling of JSON request bodies: the whole
        // request handler in process, over an in-memory SQLite.
        .executableTarget(
            name: "ServerJSONFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "ShareKitReferenceServer", package: "ReferenceServer"),
                .product(name: "ShareKitSQLiteStore", package: "SQLiteStore"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                .product(name: "ShareKitHTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
            ],
            path: "ServerJSON/Sources/ServerJSONFuzzer"
        ),
        // Every client-side decoder of the server's answers and the arithmetic
        // that consumes them (the uploader's parts, limits, token lifetimes,
        // Retry-After).
        .executableTarget(
            name: "ClientAnswersFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitTargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ShareKitPushPreviewInterface", package: "PushPreviewInterface"),
                .product(name: "ShareKitMessages", package: "Messages"),
                .product(name: "ShareKitUploads", package: "Uploads"),
                .product(name: "ShareKitTargetStore", package: "TargetStore"),
                .product(name: "ShareKitSessions", package: "Sessions"),
                .product(name: "ShareKitPushPreview", package: "PushPreview"),
                .product(name: "ShareKitOpenSSLCrypto", package: "OpenSSLCrypto"),
            ],
            path: "ClientAnswers/Sources/ClientAnswersFuzzer"
        ),
        // Photo conversion (JPEGImageConverter: libheif, libwebp, libtiff, the EXIF
        // reader and writer, libjpeg-turbo).
        .executableTarget(
            name: "PhotoFileFuzzer",
            dependencies: [
                "FuzzSupport",
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "ShareKitImageConversion", package: "ImageConversion"),
            ],
            path: "PhotoFile/Sources/PhotoFileFuzzer"
        ),
    ],
    swiftLanguageModes: [.v6]
)
