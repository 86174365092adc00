// swift-tools-version: 6.0
// Share intake: what an item is (libmagic and the freedesktop shared MIME
// database), loading with deadlines, streamed copies.
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ShareIntake",
    products: [
        .library(name: "ShareKitIntake", targets: ["ShareKitIntake"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/ShareIntakeInterface"),
        .package(path: "../../Interfaces/CryptoInterface"),
        .package(path: "../../Interfaces/ImageConversionInterface"),
        .package(path: "../../Support/SecureFiles"),
        .package(path: "../../Support/LazyLibrary"),
    ],
    targets: [
        .systemLibrary(
            name: "CShareKitMagic",
            path: "Sources/CMagic",
            providers: [.apt(["libmagic-dev"])]
        ),
        // libxml2's functions, declared here and loading it on first use
        // (nothing links it; docs/adr/0019).
        .target(
            name: "CShareKitLibXML2",
            dependencies: [.product(name: "CShareKitLazyLibrary", package: "LazyLibrary")],
            path: "Sources/CLibXML2"
        ),
        // libxml2's own headers, only for CLibXML2Check.
        .systemLibrary(
            name: "CShareKitLibXML2Headers",
            path: "Sources/CLibXML2Headers",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // CLibXML2's declarations compiled against libxml2's headers (for the tests).
        .target(
            name: "CShareKitLibXML2Check",
            dependencies: ["CShareKitLibXML2", "CShareKitLibXML2Headers"],
            path: "Sources/CLibXML2Check"
        ),
        // libmagic's functions, loading it on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CShareKitMagicLoader",
            dependencies: ["CShareKitMagic", .product(name: "CShareKitLazyLibrary", package: "LazyLibrary")],
            path: "Sources/CMagicLoader"
        ),
        .target(
            name: "ShareKitIntake",
            dependencies: [
                .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitIntakeInterface", package: "ShareIntakeInterface"),
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitSecureFiles", package: "SecureFiles"),
                "CShareKitMagic", "CShareKitMagicLoader", "CShareKitLibXML2",
            ],
            path: "Sources/ShareIntake",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareIntakeTests",
            dependencies: [
                "ShareKitIntake", "CShareKitLibXML2Check", .product(name: "ShareKitCore", package: "ShareCore"),
                .product(name: "ShareKitIntakeInterface", package: "ShareIntakeInterface"),
                .product(name: "ShareKitCryptoInterface", package: "CryptoInterface"),
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
