// swift-tools-version: 6.0
// The Matrix backend: a second implementation of the session, upload,
// message and target interfaces, speaking the Matrix client-server API to a
// homeserver (Synapse, ...). The composition root picks it for an account
// that `share login` found on a Matrix homeserver.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "MatrixBackend",
    products: [
        .library(name: "MatrixBackend", targets: ["MatrixBackend"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/KeychainInterface"),
        .package(path: "../../Interfaces/SessionsInterface"),
        .package(path: "../../Interfaces/SharedStateInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/WireContract"),
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Interfaces/MessagesInterface"),
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/TargetStoreInterface"),
        .package(path: "../../Interfaces/ImageConversionInterface"),
    ],
    targets: [
        .target(
            name: "MatrixBackend",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPTypes", package: "HTTPTypes"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "WireContract", package: "WireContract"),
                .product(name: "CryptoInterface", package: "CryptoInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "TargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ImageConversionInterface", package: "ImageConversionInterface"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MatrixBackendTests",
            dependencies: [
                "MatrixBackend",
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "TargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
