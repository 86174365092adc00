// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-concurrency-extras: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-concurrency-extras",
    products: [
        .library(name: "ConcurrencyExtras", targets: ["ConcurrencyExtras"]),
    ],
    targets: [
        .target(name: "ConcurrencyExtras"),
    ]
)
