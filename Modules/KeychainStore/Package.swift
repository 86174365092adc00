// swift-tools-version: 6.0
// Secret stores: the embedded file keychain (and the Secret Service plugin).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "KeychainStore",
    products: [
        .library(name: "KeychainStore", targets: ["KeychainStore"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/KeychainInterface")
    ],
    targets: [
        .target(
            name: "KeychainStore",
            dependencies: [.product(name: "ShareCore", package: "ShareCore"), .product(name: "KeychainInterface", package: "KeychainInterface")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
