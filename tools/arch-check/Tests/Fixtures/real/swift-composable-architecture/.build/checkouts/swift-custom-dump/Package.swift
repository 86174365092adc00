// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-custom-dump: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-custom-dump",
    products: [
        .library(name: "CustomDump", targets: ["CustomDump"]),
    ],
    targets: [
        .target(name: "CustomDump"),
    ]
)
