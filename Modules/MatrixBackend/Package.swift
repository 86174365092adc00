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
        .library(name: "ShareKitMatrixBackend", targets: ["ShareKitMatrixBackend"])
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
            name: "ShareKitMatrixBackend",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitTargetStoreInterface", package: "TargetStoreInterface"),
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
            ],
            path: "Sources/MatrixBackend",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MatrixBackendTests",
            dependencies: [
                "ShareKitMatrixBackend",
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitHTTPInterfaceTesting", package: "HTTPInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitSessionsInterface", package: "SessionsInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitTargetStoreInterface", package: "TargetStoreInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
