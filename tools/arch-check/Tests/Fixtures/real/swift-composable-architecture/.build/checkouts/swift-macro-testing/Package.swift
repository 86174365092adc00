// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-macro-testing: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-macro-testing",
    products: [
        .library(name: "MacroTesting", targets: ["MacroTesting"]),
    ],
    targets: [
        .target(name: "MacroTesting"),
    ]
)
