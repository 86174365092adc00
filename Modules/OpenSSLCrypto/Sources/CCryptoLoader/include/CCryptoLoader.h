// CCryptoLoader defines libcrypto's functions (see loader.c) and opens the
// library on request, for an error instead of the end of the program.
#pragma once

#include <stddef.h>

/// Opens libcrypto unless it is open. Returns 0, or -1 with "libcrypto
/// could not be loaded: <reason> (install the Debian package libssl3)" in
/// `message` (`capacity` bytes, NUL-terminated): OpenSSLCrypto calls it
/// before its first libcrypto call and throws that message, so a host
/// without libcrypto gets an error instead of the wrappers' exit 127.
int sk_crypto_library_load(char *message, size_t capacity);
