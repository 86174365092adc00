// swift-tools-version: 6.0
// The daemon's durable queue.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Outbox",
    products: [
        .library(name: "Outbox", targets: ["Outbox"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/OutboxInterface"),
    ],
    targets: [
        .target(
            name: "Outbox",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "OutboxInterface", package: "OutboxInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
