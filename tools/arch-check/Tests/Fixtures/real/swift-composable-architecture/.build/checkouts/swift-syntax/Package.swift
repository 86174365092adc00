// swift-tools-version:5.9
// Hand-made stand-in for https://github.com/swiftlang/swift-syntax: only the products this fixture uses.
import PackageDescription

let package = Package(
    name: "swift-syntax",
    products: [
        .library(name: "SwiftCompilerPlugin", targets: ["SwiftCompilerPlugin"]),
        .library(name: "SwiftDiagnostics", targets: ["SwiftDiagnostics"]),
        .library(name: "SwiftOperators", targets: ["SwiftOperators"]),
        .library(name: "SwiftSyntax", targets: ["SwiftSyntax"]),
        .library(name: "SwiftSyntaxBuilder", targets: ["SwiftSyntaxBuilder"]),
        .library(name: "SwiftSyntaxMacroExpansion", targets: ["SwiftSyntaxMacroExpansion"]),
        .library(name: "SwiftSyntaxMacros", targets: ["SwiftSyntaxMacros"]),
        .library(name: "SwiftSyntaxMacrosTestSupport", targets: ["SwiftSyntaxMacrosTestSupport"]),
    ],
    targets: [
        .target(name: "SwiftCompilerPlugin"),
        .target(name: "SwiftDiagnostics"),
        .target(name: "SwiftOperators"),
        .target(name: "SwiftSyntax"),
        .target(name: "SwiftSyntaxBuilder"),
        .target(name: "SwiftSyntaxMacroExpansion"),
        .target(name: "SwiftSyntaxMacros"),
        .target(name: "SwiftSyntaxMacrosTestSupport"),
    ]
)
