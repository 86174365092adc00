// swift-tools-version: 6.0
// Streaming, resumable uploads.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Uploads",
    products: [
        .library(name: "Uploads", targets: ["Uploads"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/UploadsInterface"),
    ],
    targets: [
        .target(
            name: "Uploads",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
