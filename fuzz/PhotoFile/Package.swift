// swift-tools-version: 6.0
// libFuzzer harness for photo conversion (JPEGImageConverter: libheif,
// libwebp, libtiff, the EXIF reader and writer, libjpeg-turbo).
// Built by fuzz/run with -sanitize=fuzzer; not part of the root package.
import PackageDescription

let package = Package(
    name: "PhotoFileFuzz",
    dependencies: [
        .package(path: "../FuzzSupport"),
        .package(path: "../../Interfaces/ImageConversionInterface"),
        .package(path: "../../Modules/ImageConversion"),
    ],
    targets: [
        .executableTarget(
            name: "PhotoFileFuzzer",
            dependencies: [
                .product(name: "FuzzSupport", package: "FuzzSupport"),
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "ShareKitImageConversion", package: "ImageConversion"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
