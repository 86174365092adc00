// swift-tools-version: 6.0
// Push payload parsing and preview rendering.
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
    ],
    targets: [
        .target(
            name: "PushPreview",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "PushPreviewInterface", package: "PushPreviewInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
