// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-nio-extras.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-nio-extras",
    products: [
        .library(name: "NIOHTTPCompression", targets: ["NIOHTTPCompression"]),
        .library(name: "NIOHTTPTypesHTTP1", targets: ["NIOHTTPTypesHTTP1"]),
    ],
    targets: [
        .target(name: "NIOHTTPCompression"),
        .target(name: "NIOHTTPTypesHTTP1"),
    ]
)
