#if compiler(>=6)
#if canImport(Darwin)
private import Darwin
#elseif canImport(Glibc)
private import Glibc
#elseif canImport(Bionic)
private import Bionic
#elseif canImport(Musl)
private import Musl
#endif
#else
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#endif
  #if canImport(Darwin)
  #elseif canImport(Glibc)
  #elseif canImport(Bionic)
  #else
  #endif
