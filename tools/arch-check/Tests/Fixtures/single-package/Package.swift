// swift-tools-version:6.0
// One package with many targets (the shape of swift-nio): checked with
// name patterns only. Dumped by the tests, never built.
import PackageDescription

let package = Package(
    name: "Net",
    targets: [
        .target(name: "CAtomics"),
        .target(name: "NetCore", dependencies: ["CAtomics"]),
        .target(name: "NetPosix", dependencies: ["NetCore"]),
        .target(name: "NetHTTP", dependencies: ["NetCore"]),
        .target(name: "ProfileFeature", dependencies: ["NetHTTP"]),
        .target(name: "SearchFeature", dependencies: ["NetHTTP", "ProfileFeature"]),
        .target(name: "NetTesting", dependencies: ["NetCore"]),
        .executableTarget(name: "net-demo", dependencies: ["NetPosix", "NetHTTP", "NetTesting"]),
        .testTarget(name: "NetCoreTests", dependencies: ["NetCore", "NetTesting"]),
    ]
)
