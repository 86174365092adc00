// swift-tools-version: 6.0
// A consumer that depends on ShareKit by URL and a version, as a team outside
// the repository does, and takes three modules: DPoP, KeychainStore and
// Uploads (with OpenSSLCrypto for the device key). tools/url-consumer clones
// the repository into a temporary directory, tags the clone and builds this
// package against it, then checks that no other module was compiled.
import PackageDescription

// The clone's URL (`file://…/sharekit`: the package identity is `sharekit`).
let url = Context.environment["SHAREKIT_URL"] ?? "https://example.invalid/sharekit"

let package = Package(
    name: "URLConsumer",
    dependencies: [
        .package(url: url, from: "0.2.0")
    ],
    targets: [
        .executableTarget(
            name: "URLConsumer",
            dependencies: [
                .product(name: "DPoP", package: "sharekit"),
                .product(name: "KeychainStore", package: "sharekit"),
                .product(name: "Uploads", package: "sharekit"),
                .product(name: "OpenSSLCrypto", package: "sharekit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
