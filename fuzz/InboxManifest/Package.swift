// swift-tools-version: 6.0
// libFuzzer harness for the inbox manifest decoder (InboxManifestCodec.decode)
// and the outbox's record reader (OutboxSchema.read).
// Built by fuzz/run with -sanitize=fuzzer; not part of the root package.
import PackageDescription

let package = Package(
    name: "InboxManifestFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Modules/ShareInbox"),
        .package(path: "../../Modules/Outbox"),
        .package(path: "../../Interfaces/SQLInterface"),
    ],
    targets: [
        .executableTarget(
            name: "InboxManifestFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
                .product(name: "ShareKitInbox", package: "ShareInbox"),
                .product(name: "ShareKitOutbox", package: "Outbox"),
                .product(name: "ShareKitSQLInterface", package: "SQLInterface"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
