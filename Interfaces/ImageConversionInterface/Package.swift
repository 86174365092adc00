// swift-tools-version: 6.0
// Converting a photo the server does not take (HEIF, AVIF, WebP, TIFF) into
// a JPEG it does. An interface package: protocols, value types and errors
// only, no I/O.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ImageConversionInterface",
    products: [
        .library(name: "ShareKitImageConversionInterface", targets: ["ShareKitImageConversionInterface"])
    ],
    targets: [
        .target(
            name: "ShareKitImageConversionInterface",
            path: "Sources/ImageConversionInterface",
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
