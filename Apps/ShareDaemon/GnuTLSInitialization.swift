// GnuTLS comes into share-daemon only as a dependency of Debian's libcurl
// (through librtmp and libldap, for rtmps:// and ldaps:// URLs); ShareKit's
// HTTPS is libcurl over OpenSSL. Loading GnuTLS runs its library constructor,
// which initializes the whole library (its PKCS#11 configuration through
// p11-kit, ASN.1 trees, random generators): about 0.9 MiB of resident memory
// in a process that never calls it.
//
// GnuTLS lets a program skip that implicit initialization by defining
// `_gnutls_global_init_skip` to return 1 (what gnutls.h's
// GNUTLS_SKIP_GLOBAL_INIT macro expands to). The executable exports the
// symbol dynamically (the linker flag in Package.swift), so the constructor
// finds it before the library's own weak default. A caller that does use
// GnuTLS (librtmp, libldap) calls gnutls_global_init itself, as GnuTLS
// requires without the implicit initialization.

/// Tells GnuTLS's library constructor to skip its implicit initialization.
/// - Returns: 1, skip.
@_cdecl("_gnutls_global_init_skip")
public func gnutlsGlobalInitializationSkip() -> Int32 { 1 }
