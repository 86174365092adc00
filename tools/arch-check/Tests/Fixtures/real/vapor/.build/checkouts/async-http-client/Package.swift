// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/swift-server/async-http-client.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "async-http-client",
    products: [
        .library(name: "AsyncHTTPClient", targets: ["AsyncHTTPClient"]),
    ],
    targets: [
        .target(name: "AsyncHTTPClient"),
    ]
)
