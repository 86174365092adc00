// swift-tools-version: 6.0
// createMessage / createThread and the Sender: uploads, then the message,
// every failure classified (retryable or rejected).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Messages",
    products: [
        .library(name: "ShareKitMessages", targets: ["ShareKitMessages"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/MessagesInterface"),
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/ServerAPIInterface"),
        .package(path: "../../Interfaces/WireContract"),
        // For the tests only: the header fields of a scripted answer.
        .package(path: "../../Interfaces/HTTPTypes"),
    ],
    targets: [
        .target(
            name: "ShareKitMessages",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitWireContract", package: "WireContract"),
            ],
            path: "Sources/Messages",
            swiftSettings: swiftSettings
        ),
        // The client against the published fake of the API client: the
        // requests it builds and how it reads each answer.
        .testTarget(
            name: "MessagesTests",
            dependencies: [
                "ShareKitMessages",
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitServerAPIInterface", package: "ServerAPIInterface"),
                .product(name: "ShareKitServerAPIInterfaceTesting", package: "ServerAPIInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
