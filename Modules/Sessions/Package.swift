// swift-tools-version: 6.0
// Session tokens: refresh with single flight across processes.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Sessions",
    products: [
        .library(name: "Sessions", targets: ["Sessions"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/SessionsInterface"),
    ],
    targets: [
        .target(
            name: "Sessions",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "SessionsInterface", package: "SessionsInterface"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
