// swift-tools-version: 6.0
// Share intake: what an item is, loading with deadlines.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ShareIntake",
    products: [
        .library(name: "ShareIntake", targets: ["ShareIntake"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/ShareIntakeInterface"),
    ],
    targets: [
        .target(
            name: "ShareIntake",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "ShareIntakeInterface", package: "ShareIntakeInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
