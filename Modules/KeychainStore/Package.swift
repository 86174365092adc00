// swift-tools-version: 6.0
// Secret stores: the embedded file keychain (the default) and the
// freedesktop Secret Service plugin, chosen by `KeychainBackend`.
//
// The Secret Service plugin lives in its own target so that libsecret is
// imported in exactly one place (`KeychainSecretService`, through the
// C target `CSecret`, which declares the functions it uses and opens
// libsecret on first use); `KeychainStore` holds the file backend
// and the factory that picks a backend by configuration. The POSIX
// secure-file code the file backend stands on (no-follow opens, owner and mode
// checks, atomic replace, flock) is the support package SecureFiles.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "KeychainStore",
    products: [
        .library(name: "ShareKitKeychainStore", targets: ["ShareKitKeychainStore"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/KeychainInterface"),
        .package(path: "../../Support/SecureFiles"),
        .package(path: "../../Support/LazyLibrary"),
    ],
    targets: [
        // MARK: - File backend and backend choice
        .target(
            name: "ShareKitKeychainStore",
            dependencies: [
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
                "ShareKitKeychainSecretService",
            ],
            path: "Sources/KeychainStore",
            swiftSettings: swiftSettings
        ),

        // MARK: - Secret Service plugin (libsecret)
        .target(
            name: "ShareKitKeychainSecretService",
            dependencies: [
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"), "CShareKitSecret",
            ],
            path: "Sources/KeychainSecretService",
            swiftSettings: swiftSettings
        ),
        // libsecret's and GLib's functions, declared here and loading
        // libsecret on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CShareKitSecret",
            dependencies: [.product(name: "CShareKitLazyLibrary", package: "LazyLibrary")],
            path: "Sources/CSecret"
        ),
        // libsecret's own headers, only for CSecretCheck.
        .systemLibrary(
            name: "CShareKitSecretHeaders",
            path: "Sources/CSecretHeaders",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // CSecret's declarations compiled against libsecret's headers (for the tests).
        .target(
            name: "CShareKitSecretCheck",
            dependencies: ["CShareKitSecret", "CShareKitSecretHeaders"],
            path: "Sources/CSecretCheck"
        ),
        .testTarget(
            name: "KeychainStoreTests",
            dependencies: [
                "ShareKitKeychainStore", "CShareKitSecretCheck",
                .product(name: "ShareKitKeychainInterface", package: "KeychainInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
