// swift-tools-version: 6.0
// Photos as JPEG: HEIF and HEIC, AVIF, WebP, TIFF, PNG and GIF converted into
// JPEG for a server that takes no other image type, and the metadata of a JPEG
// or PNG sent as it is removed without re-encoding (docs/adr/0014-photos-as-jpeg.md).
//
// The C libraries are Debian's, reached through system-library targets owned
// by this package only: `CHeif` (libheif), `CWebP` (libwebp), `CTIFF`
// (libtiff), `CPNG` (libpng), `CGif` (giflib), `CJPEG` (libjpeg-turbo),
// headers only: nothing links them,
// `CImageCodecLoader` opens each on first use (docs/adr/0019). And
// `CImageCodecShim`, a few C functions for what Swift cannot do safely
// (libjpeg's longjmp errors, libtiff's variadic error handlers, descriptor
// readers for libheif and libtiff).
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
        .library(name: "ShareKitImageConversion", targets: ["ShareKitImageConversion"])
    ],
    dependencies: [
        .package(path: "../../Support/SystemTesting"),
        .package(path: "../../Interfaces/ImageConversionInterface"),
        .package(path: "../../Support/LazyLibrary"),
    ],
    targets: [
        .target(
            name: "ShareKitImageConversion",
            dependencies: [
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                "CShareKitHeif", "CShareKitWebP", "CShareKitPNG", "CShareKitGif", "CShareKitImageCodecShim",
                "CShareKitImageCodecLoader",
            ],
            path: "Sources/ImageConversion",
            swiftSettings: swiftSettings
        ),

        // MARK: - The C libraries
        .systemLibrary(
            name: "CShareKitHeif",
            path: "Sources/CHeif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CShareKitWebP",
            path: "Sources/CWebP",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            name: "CShareKitTIFF",
            path: "Sources/CTIFF",
            providers: [.apt(["libtiff-dev"])]
        ),
        .systemLibrary(
            name: "CShareKitPNG",
            path: "Sources/CPNG",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CShareKitGif",
            path: "Sources/CGif",
            providers: [.apt(["libgif-dev"])]
        ),
        .systemLibrary(
            name: "CShareKitJPEG",
            path: "Sources/CJPEG",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .target(
            name: "CShareKitImageCodecShim",
            dependencies: ["CShareKitHeif", "CShareKitTIFF", "CShareKitJPEG", "CShareKitImageCodecLoader"],
            path: "Sources/CImageCodecShim"
        ),
        // The codecs' functions, loading each library on first use (nothing
        // links them; docs/adr/0019).
        .target(
            name: "CShareKitImageCodecLoader",
            dependencies: [
                "CShareKitHeif", "CShareKitWebP", "CShareKitTIFF", "CShareKitJPEG", "CShareKitPNG", "CShareKitGif",
                .product(name: "CShareKitLazyLibrary", package: "LazyLibrary"),
            ],
            path: "Sources/CImageCodecLoader"
        ),

        .testTarget(
            name: "ImageConversionTests",
            dependencies: [
                "ShareKitImageConversion", "CShareKitHeif",
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings,
            // The fixtures encode HEIF test pictures with libheif's encoder,
            // which the program itself never calls (so no wrapper has it).
            linkerSettings: [.linkedLibrary("heif")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
