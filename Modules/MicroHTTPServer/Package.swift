// swift-tools-version: 6.0
// The HTTP/1.1 server engine behind HTTPServerInterface, on GNU
// libmicrohttpd (docs/adr/0002-http-server-engine.md).
//
// libmicrohttpd is reached through two C targets owned by this package only:
// `CMicroHTTPD`, the system library (headers and linking), and
// `CMicroHTTPDShim`, a few C functions that wrap the variadic calls
// (`MHD_start_daemon`, `MHD_get_daemon_info`, `MHD_get_connection_info`),
// which Swift cannot call, and libmicrohttpd's logger, which hands over a
// `va_list`.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "MicroHTTPServer",
    products: [
        .library(name: "ShareKitMicroHTTPServer", targets: ["ShareKitMicroHTTPServer"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/HTTPServerInterface"),
    ],
    targets: [
        // MARK: - The engine
        .target(
            name: "ShareKitMicroHTTPServer",
            dependencies: [
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPServerInterface", package: "HTTPServerInterface"),
                "CShareKitMicroHTTPD",
                "CShareKitMicroHTTPDShim",
            ],
            path: "Sources/MicroHTTPServer",
            swiftSettings: swiftSettings
        ),

        // MARK: - libmicrohttpd
        .systemLibrary(
            name: "CShareKitMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(
            name: "CShareKitMicroHTTPDShim",
            dependencies: ["CShareKitMicroHTTPD"],
            path: "Sources/CMicroHTTPDShim"
        ),
        .testTarget(
            name: "MicroHTTPServerTests",
            dependencies: [
                "ShareKitMicroHTTPServer",
                .product(name: "ShareKitHTTPServerInterface", package: "HTTPServerInterface"),
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
