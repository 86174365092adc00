// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-case-paths: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-case-paths",
    products: [
        .library(name: "CasePaths", targets: ["CasePaths"]),
    ],
    targets: [
        .target(name: "CasePaths"),
    ]
)
