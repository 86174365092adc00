// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-clocks: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-clocks",
    products: [
        .library(name: "Clocks", targets: ["Clocks"]),
    ],
    targets: [
        .target(name: "Clocks"),
    ]
)
