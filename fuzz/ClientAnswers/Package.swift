// swift-tools-version: 6.0
// libFuzzer harness for every client-side decoder of the server's answers and
// the arithmetic that consumes them (the uploader's parts, limits, token
// lifetimes, Retry-After). Built by fuzz/run with -sanitize=fuzzer; not part
// of the root package.
import PackageDescription

let package = Package(
    name: "ClientAnswersFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/MessagesInterface"),
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/TargetStoreInterface"),
        .package(path: "../../Interfaces/PushPreviewInterface"),
        .package(path: "../../Modules/Messages"),
        .package(path: "../../Modules/Uploads"),
        .package(path: "../../Modules/TargetStore"),
        .package(path: "../../Modules/Sessions"),
        .package(path: "../../Modules/PushPreview"),
        .package(path: "../../Modules/OpenSSLCrypto"),
    ],
    targets: [
        .executableTarget(
            name: "ClientAnswersFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
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
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
