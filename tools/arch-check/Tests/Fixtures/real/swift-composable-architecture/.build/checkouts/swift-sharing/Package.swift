// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-sharing: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-sharing",
    products: [
        .library(name: "Sharing", targets: ["Sharing"]),
    ],
    targets: [
        .target(name: "Sharing"),
    ]
)
