// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/swiftlang/swift-docc-plugin: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-docc-plugin",
    products: [
    ],
    targets: [
    ]
)
