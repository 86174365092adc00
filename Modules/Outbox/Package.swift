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
        .library(name: "ShareKitOutbox", targets: ["ShareKitOutbox"])
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
            name: "ShareKitOutbox",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitOutboxInterface", package: "OutboxInterface"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitDeliveryInterface", package: "DeliveryInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
            ],
            path: "Sources/Outbox",
            swiftSettings: swiftSettings
        ),
        // The drainer and the takeover on real files against the published
        // fakes of the queue, the share inbox and the delivery engine. SQLiteOutbox on a real database
        // is the root package's OutboxTests (the SQLite module is another
        // module).
        .testTarget(
            name: "OutboxTests",
            dependencies: [
                "ShareKitOutbox",
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitOutboxInterface", package: "OutboxInterface"),
                .product(name: "ShareKitOutboxInterfaceTesting", package: "OutboxInterface"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitInboxInterfaceTesting", package: "ShareInboxInterface"),
                .product(name: "ShareKitDeliveryInterface", package: "DeliveryInterface"),
                .product(name: "ShareKitDeliveryInterfaceTesting", package: "DeliveryInterface"),
                .product(name: "ShareKitMessagesInterface", package: "MessagesInterface"),
                .product(name: "ShareKitUploadsInterface", package: "UploadsInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
