// swift-tools-version: 6.0
// The daemon's durable queue: a SQLite outbox (through SQLInterface) with its
// own copies of the files, the takeover of share inbox entries into it, and
// the drainer that sends through the one delivery engine.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Outbox",
    products: [
        .library(name: "Outbox", targets: ["Outbox"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/OutboxInterface"),
        .package(path: "../../Interfaces/ShareInboxInterface"),
        .package(path: "../../Interfaces/MessagesInterface"),
        .package(path: "../../Interfaces/DeliveryInterface"),
        .package(path: "../../Interfaces/UploadsInterface"),
        .package(path: "../../Interfaces/SQLInterface"),
        .package(path: "../../Support/SecureFiles"),
        // For the tests only: temporary directories.
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        .target(
            name: "Outbox",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "OutboxInterface", package: "OutboxInterface"),
                .product(name: "ShareInboxInterface", package: "ShareInboxInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "DeliveryInterface", package: "DeliveryInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "SQLInterface", package: "SQLInterface"),
                .product(name: "SecureFiles", package: "SecureFiles"),
            ],
            swiftSettings: swiftSettings
        ),
        // The drainer and the takeover on real files against the published
        // fakes of the queue, the share inbox and the delivery engine. SQLiteOutbox on a real database
        // is the root package's OutboxTests (the SQLite module is another
        // module).
        .testTarget(
            name: "OutboxTests",
            dependencies: [
                "Outbox",
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "OutboxInterface", package: "OutboxInterface"),
                .product(name: "OutboxInterfaceTesting", package: "OutboxInterface"),
                .product(name: "ShareInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareInboxInterfaceTesting", package: "ShareInboxInterface"),
                .product(name: "DeliveryInterface", package: "DeliveryInterface"),
                .product(name: "DeliveryInterfaceTesting", package: "DeliveryInterface"),
                .product(name: "MessagesInterface", package: "MessagesInterface"),
                .product(name: "UploadsInterface", package: "UploadsInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
