// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Gen",
    dependencies: [.package(path: "../../Hooks/On"), .package(path: "../../Packages/Core")],
    targets: [
        .executableTarget(
            name: "Gen",
            dependencies: [
                .product(name: "Core", package: "Core"),
                .product(name: "Hooks", package: "On"),
            ]
        )
    ]
)
