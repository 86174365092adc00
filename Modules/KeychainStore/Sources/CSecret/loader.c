// libsecret with GLib, loaded on first use: this file defines every
// libsecret, GLib and GObject function KeychainSecretService calls (declared
// in CSecret.h, checked against the libraries' headers by CSecretCheck) as a
// wrapper that opens libsecret-1.so.0 with dlopen on the first call and calls
// the function through a pointer of the declared type. The GLib and GObject
// functions are looked up through libsecret's handle, which reaches the
// libraries it depends on. Nothing links libsecret, so a program on the file
// keychain (the default) never maps libsecret, GIO, GObject, GLib and their
// libraries, about 2 MiB and 3,200 of the dynamic loader's symbol lookups at
// every start (docs/adr/0019-libraries-loaded-on-first-use.md). The Secret
// Service backend calls `sk_secret_library_load` first, so a missing
// libsecret makes that backend unavailable with the reason; a wrapper called
// without it ends the program with status 127. A new call needs its
// declaration in CSecret.h and its wrapper here.
#include "CSecret.h"

#include <CLazyLibrary.h>

static lazy_library libsecret = LAZY_LIBRARY_INIT("libsecret-1.so.0", "libsecret", "libsecret-1-0");

int sk_secret_library_load(char *message, size_t capacity) { return lazy_library_load(&libsecret, message, capacity); }

static void *pointer_g_error_free;
void (g_error_free)(GError *error) {
    LAZY_FUNCTION(libsecret, g_error_free)(error);
}

static void *pointer_g_free;
void (g_free)(gpointer mem) {
    LAZY_FUNCTION(libsecret, g_free)(mem);
}

static void *pointer_g_hash_table_insert;
gboolean (g_hash_table_insert)(GHashTable *hash_table, gpointer key, gpointer value) {
    return LAZY_FUNCTION(libsecret, g_hash_table_insert)(hash_table, key, value);
}

static void *pointer_g_hash_table_lookup;
gpointer (g_hash_table_lookup)(GHashTable *hash_table, gconstpointer key) {
    return LAZY_FUNCTION(libsecret, g_hash_table_lookup)(hash_table, key);
}

static void *pointer_g_hash_table_new_full;
GHashTable *(g_hash_table_new_full)(GHashFunc hash_func, GEqualFunc key_equal_func, GDestroyNotify key_destroy_func, GDestroyNotify value_destroy_func) {
    return LAZY_FUNCTION(libsecret, g_hash_table_new_full)(hash_func, key_equal_func, key_destroy_func, value_destroy_func);
}

static void *pointer_g_hash_table_unref;
void (g_hash_table_unref)(GHashTable *hash_table) {
    LAZY_FUNCTION(libsecret, g_hash_table_unref)(hash_table);
}

static void *pointer_g_list_free_full;
void (g_list_free_full)(GList *list, GDestroyNotify free_func) {
    LAZY_FUNCTION(libsecret, g_list_free_full)(list, free_func);
}

static void *pointer_g_object_unref;
void (g_object_unref)(gpointer object) {
    LAZY_FUNCTION(libsecret, g_object_unref)(object);
}

static void *pointer_g_str_equal;
gboolean (g_str_equal)(gconstpointer v1, gconstpointer v2) {
    return LAZY_FUNCTION(libsecret, g_str_equal)(v1, v2);
}

static void *pointer_g_str_hash;
guint (g_str_hash)(gconstpointer v) {
    return LAZY_FUNCTION(libsecret, g_str_hash)(v);
}

static void *pointer_g_strdup;
gchar *(g_strdup)(const gchar *str) {
    return LAZY_FUNCTION(libsecret, g_strdup)(str);
}

static void *pointer_secret_password_clearv_sync;
gboolean secret_password_clearv_sync(const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, GError **error) {
    return LAZY_FUNCTION(libsecret, secret_password_clearv_sync)(schema, attributes, cancellable, error);
}

static void *pointer_secret_password_lookupv_binary_sync;
SecretValue *secret_password_lookupv_binary_sync(const SecretSchema *schema, GHashTable *attributes, GCancellable *cancellable, GError **error) {
    return LAZY_FUNCTION(libsecret, secret_password_lookupv_binary_sync)(schema, attributes, cancellable, error);
}

static void *pointer_secret_password_searchv_sync;
GList *secret_password_searchv_sync(const SecretSchema *schema, GHashTable *attributes, SecretSearchFlags flags, GCancellable *cancellable, GError **error) {
    return LAZY_FUNCTION(libsecret, secret_password_searchv_sync)(schema, attributes, flags, cancellable, error);
}

static void *pointer_secret_password_storev_binary_sync;
gboolean secret_password_storev_binary_sync(const SecretSchema *schema, GHashTable *attributes, const gchar *collection, const gchar *label, SecretValue *value, GCancellable *cancellable, GError **error) {
    return LAZY_FUNCTION(libsecret, secret_password_storev_binary_sync)(schema, attributes, collection, label, value, cancellable, error);
}

static void *pointer_secret_retrievable_get_attributes;
GHashTable *secret_retrievable_get_attributes(SecretRetrievable *self) {
    return LAZY_FUNCTION(libsecret, secret_retrievable_get_attributes)(self);
}

static void *pointer_secret_schema_newv;
SecretSchema *secret_schema_newv(const gchar *name, SecretSchemaFlags flags, GHashTable *attribute_names_and_types) {
    return LAZY_FUNCTION(libsecret, secret_schema_newv)(name, flags, attribute_names_and_types);
}

static void *pointer_secret_schema_unref;
void secret_schema_unref(SecretSchema *schema) {
    LAZY_FUNCTION(libsecret, secret_schema_unref)(schema);
}

static void *pointer_secret_service_get_sync;
SecretService *secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error) {
    return LAZY_FUNCTION(libsecret, secret_service_get_sync)(flags, cancellable, error);
}

static void *pointer_secret_value_get;
const gchar *secret_value_get(SecretValue *value, gsize *length) {
    return LAZY_FUNCTION(libsecret, secret_value_get)(value, length);
}

static void *pointer_secret_value_new;
SecretValue *secret_value_new(const gchar *secret, gssize length, const gchar *content_type) {
    return LAZY_FUNCTION(libsecret, secret_value_new)(secret, length, content_type);
}

static void *pointer_secret_value_unref;
void secret_value_unref(gpointer value) {
    LAZY_FUNCTION(libsecret, secret_value_unref)(value);
}
