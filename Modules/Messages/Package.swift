// swift-tools-version: 6.0
// createMessage / createThread and the Sender.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Messages",
    products: [
        .library(name: "Messages", targets: ["Messages"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/MessagesInterface"),
    ],
    targets: [
        .target(
            name: "Messages",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
