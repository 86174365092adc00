// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-certificates.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-certificates",
    products: [
        .library(name: "X509", targets: ["X509"]),
    ],
    targets: [
        .target(name: "X509"),
    ]
)
