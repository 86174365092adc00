// swift-tools-version: 6.0
// SystemTesting: temporary directories and child processes for the tests of
// every package (`TemporaryDirectory`, `runProcess`, `spawnProgram`), and
// test pictures for photo conversion (`QuadrantPicture`, `DecodedJPEG`).
//
// A support package (docs/adr/0003-support-layer.md) for tests only: its
// name ends in `Testing`, so arch-check's `testing-only` contract keeps it
// out of production code. Foundation/Glibc only.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SystemTesting",
    products: [
        .library(name: "ShareKitSystemTesting", targets: ["ShareKitSystemTesting"])
    ],
    targets: [
        .target(
            name: "ShareKitSystemTesting",
            path: "Sources/SystemTesting",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
