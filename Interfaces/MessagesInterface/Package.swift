// swift-tools-version: 6.0
// createMessage / createThread and the one Sender the CLI and daemon share.
// An interface package: protocols, value types and errors only, no I/O.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "MessagesInterface",
    products: [
        .library(name: "ShareKitMessagesInterface", targets: ["ShareKitMessagesInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../HTTPInterface"),
        .package(path: "../UploadsInterface"),
        .package(path: "../SharedStateInterface"),
        .package(path: "../ServerAPIInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitMessagesInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitSharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/MessagesInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
