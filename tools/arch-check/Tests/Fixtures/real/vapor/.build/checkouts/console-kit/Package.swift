// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/vapor/console-kit.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "console-kit",
    products: [
        .library(name: "ConsoleLogger", targets: ["ConsoleLogger"]),
    ],
    targets: [
        .target(name: "ConsoleLogger"),
    ]
)
