// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-perception: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-perception",
    products: [
        .library(name: "Perception", targets: ["Perception"]),
    ],
    targets: [
        .target(name: "Perception"),
    ]
)
