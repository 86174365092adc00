// swift-tools-version:5.9
// SwiftPM 6 reads Package@swift-6.0.swift instead of this file; this one is
// kept longer so a position taken from it would be wrong.
import PackageDescription

let package = Package(
    name: "CompiledSources",
    products: [
        .library(name: "Other", targets: ["Other"]),
        .library(name: "Lib", targets: ["Lib"]),
    ],
    targets: [
        .target(name: "Other"),
        .target(
            name: "Lib",
            dependencies: [
                .target(name: "Other")
            ]
        ),
        .target(name: "App", dependencies: ["Lib"], exclude: ["Generated"], resources: [.copy("Resources")]),
    ]
)
