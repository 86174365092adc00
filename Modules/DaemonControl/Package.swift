// swift-tools-version: 6.0
// The control socket between `share` and `share-daemon` on a Unix stream
// socket: the CLI's client (deadline, size limit, strict decoding, the
// previous version's plain words) and the daemon's listening side (one
// deadline per connection, a bounded number of connections).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "DaemonControl",
    products: [
        .library(name: "ShareKitDaemonControl", targets: ["ShareKitDaemonControl"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/DaemonControlInterface"),
        .package(path: "../../Support/SecureFiles"),
    ],
    targets: [
        .target(
            name: "ShareKitDaemonControl",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitDaemonControlInterface", package: "DaemonControlInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
            ],
            path: "Sources/DaemonControl",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DaemonControlTests",
            dependencies: [
                "ShareKitDaemonControl",
                .product(name: "ShareKitDaemonControlInterface", package: "DaemonControlInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
