// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/pointfreeco/swift-navigation: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-navigation",
    products: [
        .library(name: "SwiftUINavigation", targets: ["SwiftUINavigation"]),
        .library(name: "UIKitNavigation", targets: ["UIKitNavigation"]),
    ],
    targets: [
        .target(name: "SwiftUINavigation"),
        .target(name: "UIKitNavigation"),
    ]
)
