// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-collections: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-collections",
    products: [
        .library(name: "OrderedCollections", targets: ["OrderedCollections"]),
    ],
    targets: [
        .target(name: "OrderedCollections"),
    ]
)
