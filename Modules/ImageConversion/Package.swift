// swift-tools-version: 6.0
// Photos as JPEG: HEIF and HEIC, AVIF, WebP and TIFF converted into JPEG for
// a server that takes no other image type (docs/adr/0014-photos-as-jpeg.md).
//
// The C libraries are Debian's, reached through system-library targets owned
// by this package only: `CHeif` (libheif), `CWebP` (libwebp), `CTIFF`
// (libtiff), `CJPEG` (libjpeg-turbo), and `CImageCodecShim`, a few C
// functions for what Swift cannot do safely (libjpeg's longjmp errors,
// libtiff's variadic error handlers, descriptor readers for libheif and
// libtiff).
import PackageDescription

// One list of compiler settings for every target: Swift 6 mode plus the
// upcoming features that make imports explicit (see docs/adr/0001).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ImageConversion",
    products: [
        .library(name: "ImageConversion", targets: ["ImageConversion"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/ImageConversionInterface"),
    ],
    targets: [
        .target(
            name: "ImageConversion",
            dependencies: [
                .product(name: "ImageConversionInterface", package: "ImageConversionInterface"),
                "CHeif", "CWebP", "CImageCodecShim",
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: - The C libraries
        .systemLibrary(
            name: "CHeif",
            path: "Sources/CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            path: "Sources/CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CTIFF",
            path: "Sources/CTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            path: "Sources/CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .target(
            name: "CImageCodecShim",
            dependencies: ["CHeif", "CTIFF", "CJPEG"]
        ),

        .testTarget(
            name: "ImageConversionTests",
            dependencies: [
                "ImageConversion", "CHeif",
                .product(name: "ImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "SystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
