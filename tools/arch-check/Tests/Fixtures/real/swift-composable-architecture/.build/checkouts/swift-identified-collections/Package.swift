// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-identified-collections: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-identified-collections",
    products: [
        .library(name: "IdentifiedCollections", targets: ["IdentifiedCollections"]),
    ],
    targets: [
        .target(name: "IdentifiedCollections"),
    ]
)
