// swift-tools-version: 6.0
// Streaming, resumable uploads: the upload protocol client over a DPoP-signing
// HTTP client (parts streamed from disk as file regions, one hashing pass,
// resumption through getUpload, abort on cancel, a time budget), and a
// file-backed upload record store so another process can resume.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Uploads",
    products: [
        .library(name: "ShareKitUploads", targets: ["ShareKitUploads"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Support/SecureFiles"),
        .package(path: "../../Interfaces/WireContract"),
        // For the tests only: temporary directories and `sha256sum`.
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .target(
            name: "ShareKitUploads",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/Uploads",
            swiftSettings: swiftSettings
        ),
        // The uploader on real files against the published fake of the API
        // client, hashing with a SHA-256 of the tests' own (checked against
        // sha256sum) in place of the OpenSSL module.
        .testTarget(
            name: "UploadsTests",
            dependencies: [
                "ShareKitUploads",
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitServerAPIInterfaceTesting", package: "ServerAPIInterface"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
