// swift-tools-version: 6.0
// Takeover benchmark: 1000 small text shares written into a share inbox with
// FileShareInbox, taken over into a SQLiteOutbox by InboxTakeover (goal:
// within 1 second), then the same taken over and sent to a release
// `share-server` by a `share-daemon --once` process. A separate package so
// that benchmarks never slow down the main build; one level below
// benchmarks/takeover like the other benchmarks.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "TakeoverBenchmark",
    products: [
        .executable(name: "takeover-benchmark", targets: ["TakeoverBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/ShareCore"),
        .package(path: "../../../Interfaces/ShareInboxInterface"),
        .package(path: "../../../Interfaces/OutboxInterface"),
        .package(path: "../../../Interfaces/SQLInterface"),
        .package(path: "../../../Modules/ShareInbox"),
        .package(path: "../../../Modules/Outbox"),
        .package(path: "../../../Modules/SQLiteStore"),
    ],
    targets: [
        .executableTarget(
            name: "TakeoverBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitInboxInterface", package: "ShareInboxInterface"),
                .product(name: "ShareKitOutboxInterface", package: "OutboxInterface"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
                .product(name: "ShareKitInbox", package: "ShareInbox"),
                .product(name: "ShareKitOutbox", package: "Outbox"),
                .product(name: "ShareKitSQLiteStore", package: "SQLiteStore"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
