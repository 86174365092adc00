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
        .library(name: "UploadsInterface", targets: ["UploadsInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../HTTPInterface"),
        .package(path: "../ServerAPIInterface"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "UploadsInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
