// swift-tools-version:6.0
// Declared dependencies no source imports. Dumped by the tests, never built.
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Unused",
    targets: [
        .target(name: "Core"),
        .target(name: "Lib"),
        .target(name: "Unused"),
        // A macro plugin is used through #externalMacro, never imported.
        .macro(name: "AppMacros"),
        // Re-exports Core: importing Core uses it.
        .target(name: "Umbrella", dependencies: ["Core"]),
        .target(name: "CDep"),
        // A C target: its #includes are not read, so its dependencies are not judged.
        .target(name: "CSupport", dependencies: ["CDep"]),
        .executableTarget(
            name: "App",
            dependencies: [
                "Lib",
                "Unused",
                "AppMacros",
                "Umbrella",
                "CSupport",
            ]
        ),
        // Depends on the program to have it built, runs it as a process, never imports it.
        .testTarget(name: "AppTests", dependencies: ["App"]),
    ]
)
