// swift-tools-version: 6.0
// Push payload parsing, the preview fetch and rendering (the notifier).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PushPreview",
    products: [
        .library(name: "ShareKitPushPreview", targets: ["ShareKitPushPreview"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/PushPreviewInterface"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/KeychainInterface"),
        .package(path: "../../Interfaces/SharedStateInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitPushPreview",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitPushPreviewInterface", package: "PushPreviewInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/PushPreview",
            // The one localized string table (English and German) of the
            // notifier's texts: placeholders and format strings are never
            // literals in code.
            swiftSettings: swiftSettings
        ),
        // The payload parser and the link check on hostile input; the
        // registrar and the preview client against the published fake of
        // the API client.
        .testTarget(
            name: "PushPreviewTests",
            dependencies: [
                "ShareKitPushPreview",
                .product(name: "ShareKitPushPreviewInterface", package: "PushPreviewInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitServerAPIInterfaceTesting", package: "ServerAPIInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
