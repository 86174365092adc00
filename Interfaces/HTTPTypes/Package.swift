// swift-tools-version: 6.0
// HTTP values both sides share: header fields (case-insensitive names,
// repeated fields kept in order), used by the client and server interfaces.
// An interface package: protocols, value types and errors only, no I/O.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "HTTPTypes",
    products: [
        .library(name: "ShareKitHTTPTypes", targets: ["ShareKitHTTPTypes"])
    ],
    targets: [
        .target(
            name: "ShareKitHTTPTypes",
            path: "Sources/HTTPTypes",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
