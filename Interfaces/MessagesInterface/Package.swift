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
        .library(name: "MessagesInterface", targets: ["MessagesInterface"])
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
            name: "MessagesInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "SharedStateInterface", package: "SharedStateInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
