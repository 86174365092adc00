// swift-tools-version: 6.0
// A stand-in for apple/swift-http-types with the names of its library targets, for the URL consumer
// (Tests/Fixtures/URLConsumer): SwiftPM refuses a graph in which two packages declare a target of
// the same name, so a ShareKit target named like one of these would fail that consumer's resolution.
import PackageDescription

let package = Package(
    name: "swift-http-types",
    products: [
        .library(name: "HTTPTypes", targets: ["HTTPTypes"]),
        .library(name: "HTTPTypesFoundation", targets: ["HTTPTypesFoundation"]),
    ],
    targets: [
        .target(name: "HTTPTypes"),
        .target(name: "HTTPTypesFoundation"),
    ]
)
