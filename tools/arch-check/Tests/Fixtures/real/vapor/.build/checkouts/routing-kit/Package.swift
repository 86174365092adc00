// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/vapor/routing-kit.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "routing-kit",
    products: [
        .library(name: "RoutingKit", targets: ["RoutingKit"]),
    ],
    targets: [
        .target(name: "RoutingKit"),
    ]
)
