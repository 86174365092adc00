// libcrypto, loaded on first use: this file defines every libcrypto function
// OpenSSLCrypto calls, under its own name, as a wrapper that opens libcrypto.so.3
// with dlopen on the first call and calls the library's function through a
// pointer of the type the header declares (the compiler checks each
// definition against that declaration). Nothing links libcrypto, so a
// program that does not use it (`share --version`, `share inbox list`) does not load it
// at start: the dynamic loader's symbol lookups for libcrypto alone were a
// large part of every start (docs/adr/0019-libraries-loaded-on-first-use.md).
// A program whose libcrypto cannot be loaded stops at the first call with the
// loader's message and exit status 127, as it did before when it could
// not start. A new call needs its wrapper here: without one the program
// does not link.
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

// Link names `sharekit_<name>` for the wrappers below (docs/adr/0030).
#include "../CCrypto/wrapped.h"
#include <CLazyLibrary.h>
#include "CCryptoLoader.h"

static lazy_library libcrypto = LAZY_LIBRARY_INIT("libcrypto.so.3", "libcrypto", "libssl3");

#define LAZY(name) LAZY_FUNCTION(libcrypto, name)

int sk_crypto_library_load(char *message, size_t capacity) { return lazy_library_load(&libcrypto, message, capacity); }

static void *pointer_BN_CTX_free;
void BN_CTX_free(BN_CTX *a0) {
    LAZY(BN_CTX_free)(a0);
}

static void *pointer_BN_CTX_new;
BN_CTX *BN_CTX_new(void) {
    return LAZY(BN_CTX_new)();
}

static void *pointer_BN_bin2bn;
BIGNUM *BN_bin2bn(const unsigned char *a0, int a1, BIGNUM *a2) {
    return LAZY(BN_bin2bn)(a0, a1, a2);
}

static void *pointer_BN_bn2binpad;
int BN_bn2binpad(const BIGNUM *a0, unsigned char *a1, int a2) {
    return LAZY(BN_bn2binpad)(a0, a1, a2);
}

static void *pointer_BN_clear_free;
void BN_clear_free(BIGNUM *a0) {
    LAZY(BN_clear_free)(a0);
}

static void *pointer_BN_free;
void BN_free(BIGNUM *a0) {
    LAZY(BN_free)(a0);
}

static void *pointer_BN_secure_new;
BIGNUM *BN_secure_new(void) {
    return LAZY(BN_secure_new)();
}

static void *pointer_ECDSA_SIG_free;
void ECDSA_SIG_free(ECDSA_SIG *a0) {
    LAZY(ECDSA_SIG_free)(a0);
}

static void *pointer_ECDSA_SIG_get0_r;
const BIGNUM *ECDSA_SIG_get0_r(const ECDSA_SIG *a0) {
    return LAZY(ECDSA_SIG_get0_r)(a0);
}

static void *pointer_ECDSA_SIG_get0_s;
const BIGNUM *ECDSA_SIG_get0_s(const ECDSA_SIG *a0) {
    return LAZY(ECDSA_SIG_get0_s)(a0);
}

static void *pointer_ECDSA_SIG_new;
ECDSA_SIG *ECDSA_SIG_new(void) {
    return LAZY(ECDSA_SIG_new)();
}

static void *pointer_ECDSA_SIG_set0;
int ECDSA_SIG_set0(ECDSA_SIG *a0, BIGNUM *a1, BIGNUM *a2) {
    return LAZY(ECDSA_SIG_set0)(a0, a1, a2);
}

static void *pointer_EC_GROUP_new_by_curve_name;
EC_GROUP *EC_GROUP_new_by_curve_name(int a0) {
    return LAZY(EC_GROUP_new_by_curve_name)(a0);
}

static void *pointer_EC_POINT_free;
void EC_POINT_free(EC_POINT *a0) {
    LAZY(EC_POINT_free)(a0);
}

static void *pointer_EC_POINT_mul;
int EC_POINT_mul(const EC_GROUP *a0, EC_POINT *a1, const BIGNUM *a2, const EC_POINT *a3, const BIGNUM *a4, BN_CTX *a5) {
    return LAZY(EC_POINT_mul)(a0, a1, a2, a3, a4, a5);
}

static void *pointer_EC_POINT_new;
EC_POINT *EC_POINT_new(const EC_GROUP *a0) {
    return LAZY(EC_POINT_new)(a0);
}

static void *pointer_EC_POINT_point2oct;
size_t EC_POINT_point2oct(const EC_GROUP *a0, const EC_POINT *a1, point_conversion_form_t a2, unsigned char *a3, size_t a4, BN_CTX *a5) {
    return LAZY(EC_POINT_point2oct)(a0, a1, a2, a3, a4, a5);
}

static void *pointer_ERR_clear_error;
void ERR_clear_error(void) {
    LAZY(ERR_clear_error)();
}

static void *pointer_ERR_get_error;
unsigned long ERR_get_error(void) {
    return LAZY(ERR_get_error)();
}

static void *pointer_EVP_Digest;
int EVP_Digest(const void *a0, size_t a1, unsigned char *a2, unsigned int *a3, const EVP_MD *a4, ENGINE *a5) {
    return LAZY(EVP_Digest)(a0, a1, a2, a3, a4, a5);
}

static void *pointer_EVP_DigestFinal_ex;
int EVP_DigestFinal_ex(EVP_MD_CTX *a0, unsigned char *a1, unsigned int *a2) {
    return LAZY(EVP_DigestFinal_ex)(a0, a1, a2);
}

static void *pointer_EVP_DigestInit_ex2;
int EVP_DigestInit_ex2(EVP_MD_CTX *a0, const EVP_MD *a1, const OSSL_PARAM a2[]) {
    return LAZY(EVP_DigestInit_ex2)(a0, a1, a2);
}

static void *pointer_EVP_DigestInit_ex;
int EVP_DigestInit_ex(EVP_MD_CTX *a0, const EVP_MD *a1, ENGINE *a2) {
    return LAZY(EVP_DigestInit_ex)(a0, a1, a2);
}

static void *pointer_EVP_DigestUpdate;
int EVP_DigestUpdate(EVP_MD_CTX *a0, const void *a1, size_t a2) {
    return LAZY(EVP_DigestUpdate)(a0, a1, a2);
}

static void *pointer_EVP_MD_CTX_free;
void EVP_MD_CTX_free(EVP_MD_CTX *a0) {
    LAZY(EVP_MD_CTX_free)(a0);
}

static void *pointer_EVP_MD_CTX_new;
EVP_MD_CTX *EVP_MD_CTX_new(void) {
    return LAZY(EVP_MD_CTX_new)();
}

static void *pointer_EVP_MD_fetch;
EVP_MD *EVP_MD_fetch(OSSL_LIB_CTX *a0, const char *a1, const char *a2) {
    return LAZY(EVP_MD_fetch)(a0, a1, a2);
}

static void *pointer_EVP_PKEY_CTX_free;
void EVP_PKEY_CTX_free(EVP_PKEY_CTX *a0) {
    LAZY(EVP_PKEY_CTX_free)(a0);
}

static void *pointer_EVP_PKEY_CTX_new_from_name;
EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_name(OSSL_LIB_CTX *a0, const char *a1, const char *a2) {
    return LAZY(EVP_PKEY_CTX_new_from_name)(a0, a1, a2);
}

static void *pointer_EVP_PKEY_CTX_new_from_pkey;
EVP_PKEY_CTX *EVP_PKEY_CTX_new_from_pkey(OSSL_LIB_CTX *a0, EVP_PKEY *a1, const char *a2) {
    return LAZY(EVP_PKEY_CTX_new_from_pkey)(a0, a1, a2);
}

static void *pointer_EVP_PKEY_CTX_set_group_name;
int EVP_PKEY_CTX_set_group_name(EVP_PKEY_CTX *a0, const char *a1) {
    return LAZY(EVP_PKEY_CTX_set_group_name)(a0, a1);
}

static void *pointer_EVP_PKEY_free;
void EVP_PKEY_free(EVP_PKEY *a0) {
    LAZY(EVP_PKEY_free)(a0);
}

static void *pointer_EVP_PKEY_fromdata;
int EVP_PKEY_fromdata(EVP_PKEY_CTX *a0, EVP_PKEY **a1, int a2, OSSL_PARAM *a3) {
    return LAZY(EVP_PKEY_fromdata)(a0, a1, a2, a3);
}

static void *pointer_EVP_PKEY_fromdata_init;
int EVP_PKEY_fromdata_init(EVP_PKEY_CTX *a0) {
    return LAZY(EVP_PKEY_fromdata_init)(a0);
}

static void *pointer_EVP_PKEY_generate;
int EVP_PKEY_generate(EVP_PKEY_CTX *a0, EVP_PKEY **a1) {
    return LAZY(EVP_PKEY_generate)(a0, a1);
}

static void *pointer_EVP_PKEY_get_bn_param;
int EVP_PKEY_get_bn_param(const EVP_PKEY *a0, const char *a1, BIGNUM **a2) {
    return LAZY(EVP_PKEY_get_bn_param)(a0, a1, a2);
}

static void *pointer_EVP_PKEY_keygen_init;
int EVP_PKEY_keygen_init(EVP_PKEY_CTX *a0) {
    return LAZY(EVP_PKEY_keygen_init)(a0);
}

static void *pointer_EVP_PKEY_public_check_quick;
int EVP_PKEY_public_check_quick(EVP_PKEY_CTX *a0) {
    return LAZY(EVP_PKEY_public_check_quick)(a0);
}

static void *pointer_EVP_PKEY_sign;
int EVP_PKEY_sign(EVP_PKEY_CTX *a0, unsigned char *a1, size_t *a2, const unsigned char *a3, size_t a4) {
    return LAZY(EVP_PKEY_sign)(a0, a1, a2, a3, a4);
}

static void *pointer_EVP_PKEY_sign_init;
int EVP_PKEY_sign_init(EVP_PKEY_CTX *a0) {
    return LAZY(EVP_PKEY_sign_init)(a0);
}

static void *pointer_EVP_PKEY_up_ref;
int EVP_PKEY_up_ref(EVP_PKEY *a0) {
    return LAZY(EVP_PKEY_up_ref)(a0);
}

static void *pointer_EVP_PKEY_verify;
int EVP_PKEY_verify(EVP_PKEY_CTX *a0, const unsigned char *a1, size_t a2, const unsigned char *a3, size_t a4) {
    return LAZY(EVP_PKEY_verify)(a0, a1, a2, a3, a4);
}

static void *pointer_EVP_PKEY_verify_init;
int EVP_PKEY_verify_init(EVP_PKEY_CTX *a0) {
    return LAZY(EVP_PKEY_verify_init)(a0);
}

static void *pointer_EVP_sha256;
const EVP_MD *EVP_sha256(void) {
    return LAZY(EVP_sha256)();
}

static void *pointer_OSSL_PARAM_BLD_free;
void OSSL_PARAM_BLD_free(OSSL_PARAM_BLD *a0) {
    LAZY(OSSL_PARAM_BLD_free)(a0);
}

static void *pointer_OSSL_PARAM_BLD_new;
OSSL_PARAM_BLD *OSSL_PARAM_BLD_new(void) {
    return LAZY(OSSL_PARAM_BLD_new)();
}

static void *pointer_OSSL_PARAM_BLD_push_BN;
int OSSL_PARAM_BLD_push_BN(OSSL_PARAM_BLD *a0, const char *a1, const BIGNUM *a2) {
    return LAZY(OSSL_PARAM_BLD_push_BN)(a0, a1, a2);
}

static void *pointer_OSSL_PARAM_BLD_push_octet_string;
int OSSL_PARAM_BLD_push_octet_string(OSSL_PARAM_BLD *a0, const char *a1, const void *a2, size_t a3) {
    return LAZY(OSSL_PARAM_BLD_push_octet_string)(a0, a1, a2, a3);
}

static void *pointer_OSSL_PARAM_BLD_push_utf8_string;
int OSSL_PARAM_BLD_push_utf8_string(OSSL_PARAM_BLD *a0, const char *a1, const char *a2, size_t a3) {
    return LAZY(OSSL_PARAM_BLD_push_utf8_string)(a0, a1, a2, a3);
}

static void *pointer_OSSL_PARAM_BLD_to_param;
OSSL_PARAM *OSSL_PARAM_BLD_to_param(OSSL_PARAM_BLD *a0) {
    return LAZY(OSSL_PARAM_BLD_to_param)(a0);
}

static void *pointer_OSSL_PARAM_free;
void OSSL_PARAM_free(OSSL_PARAM *a0) {
    LAZY(OSSL_PARAM_free)(a0);
}

static void *pointer_PKCS5_PBKDF2_HMAC;
int PKCS5_PBKDF2_HMAC(const char *a0, int a1, const unsigned char *a2, int a3, int a4, const EVP_MD *a5, int a6, unsigned char *a7) {
    return LAZY(PKCS5_PBKDF2_HMAC)(a0, a1, a2, a3, a4, a5, a6, a7);
}

static void *pointer_RAND_bytes;
int RAND_bytes(unsigned char *a0, int a1) {
    return LAZY(RAND_bytes)(a0, a1);
}

static void *pointer_d2i_ECDSA_SIG;
ECDSA_SIG *d2i_ECDSA_SIG(ECDSA_SIG **a0, const unsigned char **a1, long a2) {
    return LAZY(d2i_ECDSA_SIG)(a0, a1, a2);
}

static void *pointer_i2d_ECDSA_SIG;
int i2d_ECDSA_SIG(const ECDSA_SIG *a0, unsigned char **a1) {
    return LAZY(i2d_ECDSA_SIG)(a0, a1);
}
