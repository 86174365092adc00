// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/apple/swift-nio.git: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-nio",
    products: [
        .library(name: "NIO", targets: ["NIO"]),
        .library(name: "NIOConcurrencyHelpers", targets: ["NIOConcurrencyHelpers"]),
        .library(name: "NIOCore", targets: ["NIOCore"]),
        .library(name: "NIOEmbedded", targets: ["NIOEmbedded"]),
        .library(name: "NIOFoundationEssentialsCompat", targets: ["NIOFoundationEssentialsCompat"]),
        .library(name: "NIOHTTP1", targets: ["NIOHTTP1"]),
        .library(name: "NIOPosix", targets: ["NIOPosix"]),
        .library(name: "NIOTestUtils", targets: ["NIOTestUtils"]),
        .library(name: "NIOWebSocket", targets: ["NIOWebSocket"]),
        .library(name: "_NIOFileSystem", targets: ["_NIOFileSystem"]),
        .library(name: "_NIOFileSystemFoundationCompat", targets: ["_NIOFileSystemFoundationCompat"]),
    ],
    targets: [
        .target(name: "NIO"),
        .target(name: "NIOConcurrencyHelpers"),
        .target(name: "NIOCore"),
        .target(name: "NIOEmbedded"),
        .target(name: "NIOFoundationEssentialsCompat"),
        .target(name: "NIOHTTP1"),
        .target(name: "NIOPosix"),
        .target(name: "NIOTestUtils"),
        .target(name: "NIOWebSocket"),
        .target(name: "_NIOFileSystem"),
        .target(name: "_NIOFileSystemFoundationCompat"),
    ]
)
