// swift-tools-version: 6.0
// A consumer outside the root package that depends on one module package
// alone (DPoP), proving that a team can take a single module without the
// rest of ShareKit. tools/test builds it on every run.
import PackageDescription

let package = Package(
    name: "DPoPConsumer",
    dependencies: [
        .package(path: "../../../Modules/DPoP")
    ],
    targets: [
        .executableTarget(
            name: "DPoPConsumer",
            dependencies: [.product(name: "ShareKitDPoP", package: "DPoP")]
        )
    ],
    swiftLanguageModes: [.v6]
)
