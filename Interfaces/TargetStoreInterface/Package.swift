// swift-tools-version: 6.0
// Recent targets and target search.
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
    name: "TargetStoreInterface",
    products: [
        .library(name: "TargetStoreInterface", targets: ["TargetStoreInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "TargetStoreInterface",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "WireContract", package: "WireContract"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
