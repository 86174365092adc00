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
        .library(name: "PushPreview", targets: ["PushPreview"])
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
            name: "PushPreview",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "PushPreviewInterface", package: "PushPreviewInterface"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "KeychainInterface", package: "KeychainInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "WireContract", package: "WireContract"),
            ],
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
                "PushPreview",
                .product(name: "PushPreviewInterface", package: "PushPreviewInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ServerAPIInterfaceTesting", package: "ServerAPIInterface"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
