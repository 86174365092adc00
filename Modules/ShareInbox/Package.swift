// swift-tools-version: 6.0
// The write-ahead share inbox in the shared container.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ShareInbox",
    products: [
        .library(name: "ShareInbox", targets: ["ShareInbox"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/ShareInboxInterface"),
    ],
    targets: [
        .target(
            name: "ShareInbox",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "ShareInboxInterface", package: "ShareInboxInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
