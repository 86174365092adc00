// swift-tools-version: 6.0
// libFuzzer harness for the inbox manifest decoder (InboxManifestCodec.decode).
// Built by fuzz/run with -sanitize=fuzzer; not part of the root package.
import PackageDescription

let package = Package(
    name: "InboxManifestFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Modules/ShareInbox"),
    ],
    targets: [
        .executableTarget(
            name: "InboxManifestFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
                .product(name: "ShareInbox", package: "ShareInbox"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
