// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-dependencies: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-dependencies",
    products: [
        .library(name: "Dependencies", targets: ["Dependencies"]),
        .library(name: "DependenciesMacros", targets: ["DependenciesMacros"]),
    ],
    targets: [
        .target(name: "Dependencies"),
        .target(name: "DependenciesMacros"),
    ]
)
