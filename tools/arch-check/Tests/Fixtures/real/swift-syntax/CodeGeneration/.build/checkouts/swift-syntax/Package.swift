// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/swiftlang/swift-syntax: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-syntax",
    products: [
        .library(name: "SwiftBasicFormat", targets: ["SwiftBasicFormat"]),
        .library(name: "SwiftSyntax", targets: ["SwiftSyntax"]),
        .library(name: "SwiftSyntaxBuilder", targets: ["SwiftSyntaxBuilder"]),
    ],
    targets: [
        .target(name: "SwiftBasicFormat"),
        .target(name: "SwiftSyntax"),
        .target(name: "SwiftSyntaxBuilder"),
    ]
)
