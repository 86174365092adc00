// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/swift-server/swift-service-lifecycle.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-service-lifecycle",
    products: [
        .library(name: "ServiceLifecycle", targets: ["ServiceLifecycle"]),
        .library(name: "UnixSignals", targets: ["UnixSignals"]),
    ],
    targets: [
        .target(name: "ServiceLifecycle"),
        .target(name: "UnixSignals"),
    ]
)
