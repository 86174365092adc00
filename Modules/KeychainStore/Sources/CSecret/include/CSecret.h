// The part of libsecret and GLib that KeychainSecretService uses, declared
// here instead of included, so that this module needs neither libsecret's
// and GLib's include paths (which SwiftPM gives a system-library target only
// together with their link flags, `-lsecret-1 -lgio-2.0 -lgobject-2.0
// -lglib-2.0`, placed where `--as-needed` cannot drop them) nor links them.
// loader.c defines each function and opens libsecret on first use
// (docs/adr/0019): a program on the file keychain never maps libsecret,
// GIO, GObject and GLib. Every declaration is checked against the libraries'
// own headers by CSecretCheck, which compiles them together (a prototype or
// typedef that differs fails that build) and compares the constants and the
// layouts of the two structures Swift reads.
//
// Swift cannot call C variadic functions, so the Swift side uses the `*v`
// variants (secret_password_storev_binary_sync, secret_password_lookupv_binary_sync,
// secret_password_clearv_sync, secret_password_searchv_sync, secret_schema_newv)
// that take their attributes as a GHashTable.
#ifndef CSECRET_H
#define CSECRET_H

#include <stddef.h>

// GLib's basic types (glibconfig.h and gtypes.h on every 64-bit Linux);
// repeating a typedef with the same type is valid C, so the check compiles
// these beside GLib's own.
typedef char gchar;
typedef int gint;
typedef gint gboolean;
typedef unsigned int guint;
typedef unsigned int guint32;
typedef unsigned long gsize;
typedef signed long gssize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef guint32 GQuark;
typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);
typedef void (*GDestroyNotify)(gpointer data);

typedef struct _GHashTable GHashTable;
typedef struct _GError GError;
typedef struct _GList GList;
typedef struct _GCancellable GCancellable;
typedef struct _SecretService SecretService;
typedef struct _SecretValue SecretValue;
typedef struct _SecretRetrievable SecretRetrievable;

// The fields of the two structures whose members Swift reads (a GError's
// message, a GList's links), in GLib's order; CSecretCheck compares the
// layouts.
#define SK_GERROR_FIELDS \
    GQuark domain;       \
    gint code;           \
    gchar *message;
#define SK_GLIST_FIELDS \
    gpointer data;      \
    GList *next;        \
    GList *prev;

// The values of libsecret's constants used here.
#define SK_SECRET_SERVICE_OPEN_SESSION (1 << 1)
#define SK_SECRET_SCHEMA_NONE 0
#define SK_SECRET_SEARCH_ALL (1 << 1)

#ifndef SK_SECRET_DECLARATIONS_CHECK
/// A GLib error: the domain, code and message of a failed call.
struct _GError {
    SK_GERROR_FIELDS
};

/// A node of a GLib doubly linked list.
struct _GList {
    SK_GLIST_FIELDS
};

/// A libsecret schema, used here only through pointers (libsecret makes and
/// frees it).
typedef struct _SecretSchema SecretSchema;

/// libsecret's flags of `secret_service_get_sync` used here (a subset).
typedef enum {
    SECRET_SERVICE_OPEN_SESSION = SK_SECRET_SERVICE_OPEN_SESSION,
} SecretServiceFlags;

/// libsecret's schema flags used here (a subset).
typedef enum {
    SECRET_SCHEMA_NONE = SK_SECRET_SCHEMA_NONE,
} SecretSchemaFlags;

/// libsecret's search flags used here (a subset).
typedef enum {
    SECRET_SEARCH_ALL = SK_SECRET_SEARCH_ALL,
} SecretSearchFlags;
#endif

/// Opens libsecret (and with it GIO, GObject and GLib) unless it is open.
/// Returns 0, or -1 with "libsecret could not be loaded: <reason>" in
/// `message` (`capacity` bytes, NUL-terminated), for the Secret Service
/// backend to report as unavailable instead of the program ending at the
/// first call.
int sk_secret_library_load(char *message, size_t capacity);

// The names in parentheses: GLib's headers define some of them as macros
// too (g_free, g_str_equal, g_object_unref), which the check must not expand.
void(g_error_free)(GError *error);
void(g_free)(gpointer mem);
gboolean(g_hash_table_insert)(GHashTable *hash_table, gpointer key, gpointer value);
gpointer(g_hash_table_lookup)(GHashTable *hash_table, gconstpointer key);
GHashTable *(g_hash_table_new_full)(GHashFunc hash_func, GEqualFunc key_equal_func,
                                    GDestroyNotify key_destroy_func, GDestroyNotify value_destroy_func);
void(g_hash_table_unref)(GHashTable *hash_table);
void(g_list_free_full)(GList *list, GDestroyNotify free_func);
void(g_object_unref)(gpointer object);
gboolean(g_str_equal)(gconstpointer v1, gconstpointer v2);
guint(g_str_hash)(gconstpointer v);
gchar *(g_strdup)(const gchar *str);

gboolean secret_password_clearv_sync(const SecretSchema *schema, GHashTable *attributes,
                                     GCancellable *cancellable, GError **error);
SecretValue *secret_password_lookupv_binary_sync(const SecretSchema *schema, GHashTable *attributes,
                                                 GCancellable *cancellable, GError **error);
GList *secret_password_searchv_sync(const SecretSchema *schema, GHashTable *attributes, SecretSearchFlags flags,
                                    GCancellable *cancellable, GError **error);
gboolean secret_password_storev_binary_sync(const SecretSchema *schema, GHashTable *attributes,
                                            const gchar *collection, const gchar *label, SecretValue *value,
                                            GCancellable *cancellable, GError **error);
GHashTable *secret_retrievable_get_attributes(SecretRetrievable *self);
SecretSchema *secret_schema_newv(const gchar *name, SecretSchemaFlags flags, GHashTable *attribute_names_and_types);
void secret_schema_unref(SecretSchema *schema);
SecretService *secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error);
const gchar *secret_value_get(SecretValue *value, gsize *length);
SecretValue *secret_value_new(const gchar *secret, gssize length, const gchar *content_type);
void secret_value_unref(gpointer value);

// The link names of the functions above: loader.c defines them as `sharekit_<name>`, so that they
// cannot clash with an application that links the library itself (docs/adr/0030); tools/symbol-check
// fails when one is missing here. Not in the check, which compiles the library's own headers first: their
// inline functions use some of these, and a link name cannot be given after a use.
#ifndef SK_SECRET_DECLARATIONS_CHECK
#define SHAREKIT_WRAPPED(name) __typeof__(name) name __asm__("sharekit_" #name);
SHAREKIT_WRAPPED(g_error_free)
SHAREKIT_WRAPPED(g_free)
SHAREKIT_WRAPPED(g_hash_table_insert)
SHAREKIT_WRAPPED(g_hash_table_lookup)
SHAREKIT_WRAPPED(g_hash_table_new_full)
SHAREKIT_WRAPPED(g_hash_table_unref)
SHAREKIT_WRAPPED(g_list_free_full)
SHAREKIT_WRAPPED(g_object_unref)
SHAREKIT_WRAPPED(g_str_equal)
SHAREKIT_WRAPPED(g_str_hash)
SHAREKIT_WRAPPED(g_strdup)
SHAREKIT_WRAPPED(secret_password_clearv_sync)
SHAREKIT_WRAPPED(secret_password_lookupv_binary_sync)
SHAREKIT_WRAPPED(secret_password_searchv_sync)
SHAREKIT_WRAPPED(secret_password_storev_binary_sync)
SHAREKIT_WRAPPED(secret_retrievable_get_attributes)
SHAREKIT_WRAPPED(secret_schema_newv)
SHAREKIT_WRAPPED(secret_schema_unref)
SHAREKIT_WRAPPED(secret_service_get_sync)
SHAREKIT_WRAPPED(secret_value_get)
SHAREKIT_WRAPPED(secret_value_new)
SHAREKIT_WRAPPED(secret_value_unref)

#endif

#endif
