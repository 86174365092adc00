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
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "TargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "PushPreviewInterface", package: "PushPreviewInterface"),
                .product(name: "Messages", package: "Messages"),
                .product(name: "Uploads", package: "Uploads"),
                .product(name: "TargetStore", package: "TargetStore"),
                .product(name: "Sessions", package: "Sessions"),
                .product(name: "PushPreview", package: "PushPreview"),
                .product(name: "OpenSSLCrypto", package: "OpenSSLCrypto"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
