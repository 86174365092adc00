// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/vapor/multipart-kit.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "multipart-kit",
    products: [
        .library(name: "MultipartKit", targets: ["MultipartKit"]),
    ],
    targets: [
        .target(name: "MultipartKit"),
    ]
)
