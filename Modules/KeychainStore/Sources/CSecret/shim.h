// libsecret for Swift: only KeychainSecretService imports this module.
// Swift cannot call C variadic functions, so the Swift side uses the `*v`
// variants (secret_password_storev_binary_sync, secret_password_lookupv_binary_sync,
// secret_password_clearv_sync, secret_password_searchv_sync, secret_schema_newv)
// that take their attributes as a GHashTable.
#include <libsecret/secret.h>
