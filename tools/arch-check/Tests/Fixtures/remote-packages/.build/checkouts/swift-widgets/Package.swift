// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "swift-widgets",
    products: [
        .library(name: "Widgets", targets: ["Widgets"]),
        .library(name: "WidgetsCore", targets: ["WidgetsCore"]),
    ],
    targets: [
        .target(name: "WidgetsCore"),
        .target(name: "Widgets", dependencies: ["WidgetsCore"]),
    ]
)
