// swift-tools-version: 6.0
// The one delivery engine: a kept share through upload and message
// creation to one outcome, which the keeper (inbox entry, outbox) carries out.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Delivery",
    products: [
        .library(name: "Delivery", targets: ["Delivery"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/MessagesInterface"),
        .package(path: "../../Interfaces/DeliveryInterface"),
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
    ],
    targets: [
        .target(
            name: "Delivery",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "DeliveryInterface", package: "DeliveryInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeliveryTests",
            dependencies: [
                "Delivery",
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "HTTPInterface", package: "HTTPInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "DeliveryInterface", package: "DeliveryInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "ServerAPIInterface", package: "ServerAPIInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
