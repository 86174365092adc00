// swift-tools-version: 6.0
// The HTTP client on libcurl behind HTTPInterface, and the DPoP-signing
// decorator over any HTTPInterface client (docs/adr/0004-http-client-libcurl.md).
//
// libcurl is reached through two C targets owned by this package only:
// `CCurl`, the system library's headers (in the compiler's default include
// path; nothing is linked), and `CCurlShim`, which loads libcurl with dlopen
// on first use and wraps every call HTTPTransport makes: typed wrappers
// around the variadic ones (`curl_easy_setopt`, `curl_easy_getinfo`,
// `curl_multi_setopt`) and the macros Swift cannot call or import
// (docs/adr/0019-libraries-loaded-on-first-use.md).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "HTTPTransport",
    products: [
        .library(name: "ShareKitHTTPTransport", targets: ["ShareKitHTTPTransport"])
    ],
    dependencies: [
        .package(path: "../../Interfaces/HTTPTypes"),
        .package(path: "../../Interfaces/HTTPInterface"),
        .package(path: "../../Interfaces/DPoPInterface"),
        .package(path: "../../Support/LazyLibrary"),
        // For the tests only: temporary directories.
        .package(path: "../../Support/SystemTesting"),
    ],
    targets: [
        // MARK: - The client and the DPoP decorator
        .target(
            name: "ShareKitHTTPTransport",
            dependencies: [
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitDPoPInterface", package: "DPoPInterface"),
                "CShareKitCurl",
                "CShareKitCurlShim",
                // Background work the program's exit waits for (libcurl's start-up, the event loops).
                .product(name: "CShareKitLazyLibrary", package: "LazyLibrary"),
            ],
            path: "Sources/HTTPTransport",
            swiftSettings: swiftSettings
        ),

        // MARK: - libcurl
        .systemLibrary(
            name: "CShareKitCurl",
            path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "CShareKitCurlShim",
            dependencies: ["CShareKitCurl"],
            path: "Sources/CCurlShim"
        ),

        // MARK: - Tests: real HTTP over loopback, to a server of the tests' own
        .testTarget(
            name: "HTTPTransportTests",
            dependencies: [
                "ShareKitHTTPTransport",
                .product(name: "ShareKitHTTPTypes", package: "HTTPTypes"),
                .product(name: "ShareKitHTTPInterface", package: "HTTPInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
