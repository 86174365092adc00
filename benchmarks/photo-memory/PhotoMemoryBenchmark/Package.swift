// swift-tools-version: 6.0
// Photo memory benchmark: the peak RSS of a fresh process converting a HEIC,
// a WebP and a TIFF of 1, 12 and 48 megapixels into JPEG with
// ImageConversion, against the same process converting a 64 × 32 picture.
// It shows what docs/adr/0014-photos-as-jpeg.md says: memory follows the
// pixel count (a few bytes a pixel for the decoders that hold the image),
// and a TIFF in its stored orientation is streamed by strips. A separate
// package so that benchmarks never slow down the main build.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "PhotoMemoryBenchmark",
    products: [
        .executable(name: "photo-memory-benchmark", targets: ["PhotoMemoryBenchmark"])
    ],
    dependencies: [
        .package(path: "../../BenchmarkSupport"),
        .package(path: "../../../Interfaces/ImageConversionInterface"),
        .package(path: "../../../Modules/ImageConversion"),
        .package(path: "../../../Support/SystemTesting"),
    ],
    targets: [
        .executableTarget(
            name: "PhotoMemoryBenchmark",
            dependencies: [
                .product(name: "BenchmarkSupport", package: "BenchmarkSupport"),
                .product(name: "ShareKitImageConversionInterface", package: "ImageConversionInterface"),
                .product(name: "ShareKitImageConversion", package: "ImageConversion"),
                .product(name: "ShareKitSystemTesting", package: "SystemTesting"),
            ],
            swiftSettings: swiftSettings
        )
    ],
    swiftLanguageModes: [.v6]
)
