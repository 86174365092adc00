// swift-tools-version: 6.0
// The HTTP client on libcurl behind HTTPInterface.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "HTTPTransport",
    products: [
        .library(name: "HTTPTransport", targets: ["HTTPTransport"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/HTTPInterface"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "HTTPTransport",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"), "CCurl",
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
