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
        .library(name: "ShareIntake", targets: ["ShareIntake"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/ShareCore"),
        .package(path: "../../Interfaces/ShareIntakeInterface"),
        .package(path: "../../Interfaces/ImageConversionInterface"),
        .package(path: "../../Support/SecureFiles"),
        .package(path: "../../Support/LazyLibrary"),
    ],
    targets: [
        .systemLibrary(
            name: "CMagic",
            path: "Sources/CMagic",
            providers: [.apt(["libmagic-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libmagic's functions, loading it on first use (nothing links it; docs/adr/0019).
        .target(
            name: "CMagicLoader",
            dependencies: ["CMagic", .product(name: "CLazyLibrary", package: "LazyLibrary")]
        ),
        .target(
            name: "ShareIntake",
            dependencies: [
                .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "ShareIntakeInterface", package: "ShareIntakeInterface"),
                .product(name: "ImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "SecureFiles", package: "SecureFiles"),
                "CMagic", "CMagicLoader", "CLibXML2",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ShareIntakeTests",
            dependencies: [
                "ShareIntake", .product(name: "ShareCore", package: "ShareCore"),
                .product(name: "ShareIntakeInterface", package: "ShareIntakeInterface"),
                .product(name: "ImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
