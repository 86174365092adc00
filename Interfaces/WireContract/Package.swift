// swift-tools-version: 6.0
// The wire contract shared by the clients and the reference server: every
// route (method, path template, typed parameters, operationId, problem
// codes) and the Codable types of the bodies, defined once.
// An interface package: value types only, no I/O.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "WireContract",
    products: [
        .library(name: "ShareKitWireContract", targets: ["ShareKitWireContract"])
    ],
    dependencies: [
        .package(path: "../ShareCore")
    ],
    targets: [
        .target(
            name: "ShareKitWireContract",
            dependencies: [.product(name: "ShareKitCore", package: "ShareCore")],
            path: "Sources/WireContract",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WireContractTests",
            dependencies: ["ShareKitWireContract", .product(name: "ShareKitCore", package: "ShareCore")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
