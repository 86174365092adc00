// swift-tools-version:6.0
// Remote dependencies, resolved into a hand-made .build/checkouts (manifests
// only) with its Package.resolved. Dumped by the tests, never built.
import PackageDescription

let package = Package(
    name: "RemoteUser",
    dependencies: [
        .package(url: "https://github.com/example/swift-widgets.git", from: "1.0.0"),
        .package(url: "https://github.com/example/Gadgets", from: "2.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
                .product(name: "Widgets", package: "swift-widgets"),
                .product(name: "Gadgets", package: "gadgets"),
            ]
        )
    ]
)
