// Headers of libcrypto (libssl-dev) that OpenSSLCrypto uses.
#pragma once

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<openssl/evp.h>)
#error "<openssl/evp.h> not found: install the Debian package libssl-dev to build (the program needs libssl3 to run)"
#endif
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/params.h>

// Selections for EVP_PKEY_fromdata. The OpenSSL macros are built from other
// macros with `|`, which Swift does not import, so they are wrapped here.
static inline int ccrypto_selection_keypair(void) { return EVP_PKEY_KEYPAIR; }
static inline int ccrypto_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }

// Names for OSSL_PARAM_BLD. The builder keeps the pointers it is given until
// OSSL_PARAM_BLD_to_param, and the resulting parameters keep pointing at the
// key names, so they must be C strings with static storage: a Swift String
// passed as `const char *` is only valid for the duration of one call.
static inline const char *ccrypto_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *ccrypto_param_pub_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *ccrypto_param_priv_key(void) { return OSSL_PKEY_PARAM_PRIV_KEY; }
static inline const char *ccrypto_group_p256(void) { return SN_X9_62_prime256v1; }

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
