// swift-tools-version: 6.0
// libFuzzer harness for the push payload parser (PushPayloadParser.parse).
// Built by fuzz/run with -sanitize=fuzzer; not part of the root package.
import PackageDescription

let package = Package(
    name: "PushPayloadFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Modules/PushPreview"),
    ],
    targets: [
        .executableTarget(
            name: "PushPayloadFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
                .product(name: "ShareKitPushPreview", package: "PushPreview"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
