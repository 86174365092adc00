// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-service-context.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-service-context",
    products: [
        .library(name: "ServiceContextModule", targets: ["ServiceContextModule"]),
    ],
    targets: [
        .target(name: "ServiceContextModule"),
    ]
)
