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
        .library(name: "ShareKitDelivery", targets: ["ShareKitDelivery"])
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
            name: "ShareKitDelivery",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitDeliveryInterface", package: "DeliveryInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
            ],
            path: "Sources/Delivery",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DeliveryTests",
            dependencies: [
                "ShareKitDelivery",
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitDeliveryInterface", package: "DeliveryInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
