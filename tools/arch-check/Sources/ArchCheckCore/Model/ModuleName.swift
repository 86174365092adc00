/// Swift module names of targets and the modules every target may import.
public enum ModuleName {
    /// The platforms whose own modules ``toolchainModules`` lists.
    public enum Platform: String, Sendable, CaseIterable {
        /// Modules of every Swift toolchain (the standard library, Foundation,
        /// Dispatch, the test libraries).
        case all
        /// Linux: the C library (glibc or musl).
        case linux
        /// Android: its C library and overlay.
        case android
        /// Windows: the Windows SDK and the C runtime.
        case windows
        /// WebAssembly (WASI): its C library.
        case wasi
        /// Apple platforms: Darwin and the SDK frameworks.
        case apple
    }

    /// Modules of the toolchain and of each platform, which need no declared
    /// dependency. An import of one is never "unknown", whatever platform
    /// the check runs on: code under `#if canImport(WinSDK)` is read on Linux
    /// too. `PackageDescription` and `CompilerPluginSupport` are listed for
    /// completeness: manifests are not scanned.
    public static let toolchainModules: [Platform: Set<String>] = [
        .all: [
            "Swift", "SwiftOnoneSupport", "_Concurrency", "_StringProcessing", "_RegexParser", "RegexBuilder",
            "Observation", "Distributed", "Synchronization", "_Differentiation", "Cxx", "CxxStdlib", "Runtime",
            "_Volatile", "_Builtin_float", "SwiftShims", "_SwiftConcurrencyShims", "Foundation",
            "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
            "_FoundationCollections", "CoreFoundation", "Dispatch", "dispatch", "Block", "XCTest", "Testing",
            "_TestDiscovery", "_TestingInterop", "_Testing_Foundation", "PackageDescription",
            "CompilerPluginSupport", "PackagePlugin",
        ],
        .linux: ["Glibc", "SwiftGlibc", "Musl", "SwiftMusl"],
        .android: ["Android", "SwiftAndroid", "Bionic", "AndroidLogging"],
        .windows: ["WinSDK", "ucrt", "CRT", "WinSDKBase", "vcruntime", "visualc", "_visualc_intrinsics"],
        .wasi: ["WASILibc", "SwiftWASILibc", "wasi_pthread"],
        .apple: [
            "Darwin", "ObjectiveC", "os", "OSLog", "Accelerate", "Accessibility", "ActivityKit", "AdSupport",
            "AppIntents", "AppKit", "AppTrackingTransparency", "ARKit", "AudioToolbox", "AuthenticationServices",
            "AVFAudio", "AVFoundation", "AVKit", "BackgroundTasks", "Charts", "CloudKit", "Cocoa", "Combine",
            "Contacts", "ContactsUI", "CoreAudio", "CoreBluetooth", "CoreData", "CoreGraphics", "CoreHaptics",
            "CoreImage", "CoreLocation", "CoreML", "CoreMedia", "CoreMotion", "CoreNFC", "CoreServices",
            "CoreSpotlight", "CoreTelephony", "CoreText", "CoreTransferable", "CoreVideo", "CryptoKit",
            "DeveloperToolsSupport", "DeviceCheck", "EventKit", "FileProvider", "GameController", "GameKit",
            "GLKit", "HealthKit", "ImageIO", "Intents", "IOKit", "JavaScriptCore", "LocalAuthentication",
            "MapKit", "MediaPlayer", "MessageUI", "Metal", "MetalKit", "MetalPerformanceShaders",
            "MultipeerConnectivity", "NaturalLanguage", "Network", "NetworkExtension", "NotificationCenter",
            "PassKit", "PDFKit", "PencilKit", "Photos", "PhotosUI", "PushKit", "QuartzCore", "QuickLook",
            "RealityKit", "SafariServices", "SceneKit", "Security", "SharedWithYou", "Social", "Speech",
            "SpriteKit", "StoreKit", "SwiftData", "SwiftUI", "SystemConfiguration", "TipKit", "UIKit",
            "UniformTypeIdentifiers", "UserNotifications", "Vision", "VisionKit", "WatchConnectivity",
            "WatchKit", "WebKit", "WidgetKit", "XPC",
        ],
    ]

    /// Every module of ``toolchainModules``, whatever the platform.
    public static let toolchain: Set<String> = toolchainModules.values.reduce(into: []) { $0.formUnion($1) }

    /// Whether `module` is a toolchain or platform module (of any platform).
    public static func isToolchain(_ module: String) -> Bool {
        toolchain.contains(module)
    }

    /// The module name SwiftPM derives from a target name: characters that
    /// may not appear in an identifier become `_`, and a leading digit gets
    /// a `_` in front (`arch-check` builds module `arch_check`).
    public static func c99Name(_ name: String) -> String {
        var result = String(
            name.unicodeScalars.map { scalar -> Character in
                let isValid =
                    scalar == "_"
                    || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                    || (!scalar.isASCII && scalar.properties.isXIDContinue)
                return isValid ? Character(scalar) : "_"
            })
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) {
            result = "_" + result
        }
        return result
    }
}
