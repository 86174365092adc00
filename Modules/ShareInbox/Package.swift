// swift-tools-version: 6.0
// The write-ahead share inbox in the shared container: entries as folders
// with a manifest, built in a staging folder and renamed in, locked with
// flock on the entry folder itself, corrupt ones quarantined. The POSIX
// secure-file code it stands on (no-follow opens, owner and mode checks,
// atomic replace with fsync) is the support package SecureFiles.
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
        .library(name: "ShareKitInbox", targets: ["ShareKitInbox"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/ShareInboxInterface"),
        .package(path: "../../Support/SecureFiles"),
        // For the tests only: temporary directories.
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .target(
            name: "ShareKitInbox",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
            ],
            path: "Sources/ShareInbox",
            swiftSettings: swiftSettings
        ),
        // The inbox on real files in a temporary directory.
        .testTarget(
            name: "ShareInboxTests",
            dependencies: [
                "ShareKitInbox",
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
