// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CompiledSources",
    products: [
        .library(name: "Other", targets: ["Other"]),
        .library(name: "Lib", targets: ["Lib"]),
    ],
    targets: [
        .target(name: "Other"),
        .target(name: "Lib", dependencies: [.target(name: "Other")]),
        .target(name: "App", dependencies: ["Lib"], resources: [.copy("Resources")]),
    ]
)
