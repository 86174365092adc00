// swift-tools-version: 6.0
// The upload protocol client: create, parts, resume, complete, abort.
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
    name: "UploadsInterface",
    products: [
        .library(name: "ShareKitUploadsInterface", targets: ["ShareKitUploadsInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../HTTPInterface"),
        .package(path: "../ServerAPIInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitUploadsInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/UploadsInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
