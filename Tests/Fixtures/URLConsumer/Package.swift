// swift-tools-version: 6.0
// A consumer that depends on ShareKit by URL and a version, as a team outside
// the repository does, and takes five modules: DPoP, KeychainStore, Uploads,
// SQLiteStore (with OpenSSLCrypto for the device key). It links libcrypto
// and SQLite itself too (SQLite statically, from libsqlite3.a), so that a
// ShareKit symbol named like one of their functions fails its link.
// tools/url-consumer clones the repository into a temporary directory, tags
// the clone and builds this package against it, checks that no other module
// was compiled, runs both programs and checks their symbols
// (tools/symbol-check).
import PackageDescription

// The clone's URL (`file://…/sharekit`: the package identity is `sharekit`).
let url = Context.environment["SHAREKIT_URL"] ?? "https://example.invalid/sharekit"

let package = Package(
    name: "URLConsumer",
    dependencies: [
        .package(url: url, .upToNextMinor(from: "0.2.0")),
        // Packages that declare target names ShareKit once had (HTTPTypes; Crypto beside CCrypto).
        .package(path: Context.environment["SWIFT_HTTP_TYPES_PATH"] ?? "../StandIns/swift-http-types"),
        .package(path: Context.environment["SWIFT_CRYPTO_PATH"] ?? "../StandIns/swift-crypto"),
    ],
    targets: [
        .executableTarget(
            name: "URLConsumer",
            dependencies: [
                .product(name: "ShareKitDPoP", package: "sharekit"),
                .product(name: "ShareKitKeychainStore", package: "sharekit"),
                .product(name: "ShareKitUploads", package: "sharekit"),
                .product(name: "ShareKitOpenSSLCrypto", package: "sharekit"),
                .product(name: "ShareKitSQLiteStore", package: "sharekit"),
                "CAppLibraries",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // SQLite from its static archive (libsqlite3-dev), with the math library it needs.
            linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libsqlite3.a", "-Xlinker", "-lm"])]
        ),
        // Uses OpenSSLCrypto and SQLiteStore without linking either library itself: run where libcrypto
        // and SQLite cannot be loaded, it gets errors it can handle and goes on.
        .executableTarget(
            name: "LoaderErrors",
            dependencies: [
                .product(name: "ShareKitOpenSSLCrypto", package: "sharekit"),
                .product(name: "ShareKitSQLiteStore", package: "sharekit"),
            ]
        ),
        .systemLibrary(
            name: "CAppLibraries", path: "Sources/CAppLibraries", providers: [.apt(["libssl-dev", "libsqlite3-dev"])]),
    ],
    swiftLanguageModes: [.v6]
)
