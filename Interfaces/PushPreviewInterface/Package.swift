// swift-tools-version: 6.0
// Push payloads and preview rendering.
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
    name: "PushPreviewInterface",
    products: [
        .library(name: "ShareKitPushPreviewInterface", targets: ["ShareKitPushPreviewInterface"])
    ],
    dependencies: [
        .package(path: "../ShareCore"),
        .package(path: "../WireContract"),
    ],
    targets: [
        .target(
            name: "ShareKitPushPreviewInterface",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/PushPreviewInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
