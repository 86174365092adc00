// swift-tools-version: 6.0
// Secure files: POSIX building blocks for keeping small private files of
// one user (directories opened without following symbolic links, owner and
// mode checked through the open handle, atomic replace with fsync, flock).
//
// A support package (docs/adr/0003-support-layer.md): small, stable, with
// I/O but no domain logic, Foundation/Glibc only and no dependency on
// anything in this repository. Modules, apps and tests may use it;
// interfaces may not (they hold no I/O).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "SecureFiles",
    products: [
        .library(name: "ShareKitSecureFiles", targets: ["ShareKitSecureFiles"])
    ],
    dependencies: [
        .package(path: "../SystemTesting")
    ],
    targets: [
        .target(
            name: "ShareKitSecureFiles",
            dependencies: [],
            path: "Sources/SecureFiles",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SecureFilesTests",
            dependencies: ["ShareKitSecureFiles", .product(name: "ShareKitSystemTesting", package: "SystemTesting")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
