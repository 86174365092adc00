// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "../Net"), .package(path: "../Core")],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Net", package: "Net")])]
)
