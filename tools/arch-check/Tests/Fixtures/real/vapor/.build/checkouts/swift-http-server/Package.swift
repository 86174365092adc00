// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/swift-server/swift-http-server.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-http-server",
    products: [
        .library(name: "HTTPAPIs", targets: ["HTTPAPIs"]),
        .library(name: "NIOHTTPServer", targets: ["NIOHTTPServer"]),
    ],
    targets: [
        .target(name: "HTTPAPIs"),
        .target(name: "NIOHTTPServer"),
    ]
)
