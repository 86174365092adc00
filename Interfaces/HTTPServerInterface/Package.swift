// swift-tools-version: 6.0
// The HTTP server boundary: request heads, responses, streamed request
// bodies, the handler an engine calls and the start/stop protocol.
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
    name: "HTTPServerInterface",
    products: [
        .library(name: "ShareKitHTTPServerInterface", targets: ["ShareKitHTTPServerInterface"])
    ],
    dependencies: [
        .package(path: "../HTTPTypes")
    ],
    targets: [
        .target(
            name: "ShareKitHTTPServerInterface",
            dependencies: [.product(name: "ShareKitHTTPTypes", package: "HTTPTypes")],
            path: "Sources/HTTPServerInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
