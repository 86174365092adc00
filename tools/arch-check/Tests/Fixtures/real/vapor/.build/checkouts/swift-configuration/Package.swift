// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-configuration.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-configuration",
    products: [
        .library(name: "Configuration", targets: ["Configuration"]),
    ],
    targets: [
        .target(name: "Configuration"),
    ]
)
