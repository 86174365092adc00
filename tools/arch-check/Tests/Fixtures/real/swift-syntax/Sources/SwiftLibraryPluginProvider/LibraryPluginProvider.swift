#if !os(WASI)
#if compiler(>=6)
public import SwiftSyntaxMacros
@_spi(PluginMessage) public import SwiftCompilerPluginMessageHandling
private import _SwiftLibraryPluginProviderCShims
#if canImport(Darwin)
private import Darwin
#elseif canImport(Glibc)
private import Glibc
#elseif canImport(Musl)
private import Musl
#elseif canImport(Android)
private import Android
#endif  // canImport
#else  // compiler(>=6)
import SwiftSyntaxMacros
@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
#if RESILIENT_LIBRARIES
@_implementationOnly import _SwiftLibraryPluginProviderCShims
#if canImport(Darwin)
@_implementationOnly import Darwin
#elseif canImport(Glibc)
@_implementationOnly import Glibc
#elseif canImport(Musl)
@_implementationOnly import Musl
#endif  // canImport
#else  // RESILIENT_LIBRARIES
import _SwiftLibraryPluginProviderCShims
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif  // canImport
#endif  // RESILIENT_LIBRARIES
#endif  // compiler(>=6)
#if os(Windows)
#else
#endif
#if swift(<5.8)
#endif
#endif  // !os(WASI)
