// SQLite, loaded on first use: this file defines every SQLite function
// SQLiteStore calls, under its own name, as a wrapper that opens libsqlite3.so.0
// with dlopen on the first call and calls the library's function through a
// pointer of the type the header declares (the compiler checks each
// definition against that declaration). Nothing links SQLite, so a
// program that does not use it (`share --version`, `share send`) does not load it
// at start: the dynamic loader's symbol lookups for SQLite alone were a
// large part of every start (docs/adr/0019-libraries-loaded-on-first-use.md).
// A program whose SQLite cannot be loaded stops at the first call with the
// loader's message and exit status 127, as it did before when it could
// not start. A new call needs its wrapper here: without one the program
// does not link.
#include <sqlite3.h>

// Link names `sharekit_<name>` for the wrappers below (docs/adr/0030).
#include "../CSQLite/wrapped.h"
#include <CLazyLibrary.h>
#include "CSQLiteLoader.h"

static lazy_library sqlite = LAZY_LIBRARY_INIT("libsqlite3.so.0", "libsqlite3", "libsqlite3-0");

#define LAZY(name) LAZY_FUNCTION(sqlite, name)

int sk_sqlite_library_load(char *message, size_t capacity) { return lazy_library_load(&sqlite, message, capacity); }

static void *pointer_sqlite3_bind_blob64;
int sqlite3_bind_blob64(sqlite3_stmt *a0, int a1, const void *a2, sqlite3_uint64 a3, void (*a4)(void *)) {
    return LAZY(sqlite3_bind_blob64)(a0, a1, a2, a3, a4);
}

static void *pointer_sqlite3_bind_double;
int sqlite3_bind_double(sqlite3_stmt *a0, int a1, double a2) {
    return LAZY(sqlite3_bind_double)(a0, a1, a2);
}

static void *pointer_sqlite3_bind_int64;
int sqlite3_bind_int64(sqlite3_stmt *a0, int a1, sqlite3_int64 a2) {
    return LAZY(sqlite3_bind_int64)(a0, a1, a2);
}

static void *pointer_sqlite3_bind_null;
int sqlite3_bind_null(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_bind_null)(a0, a1);
}

static void *pointer_sqlite3_bind_parameter_count;
int sqlite3_bind_parameter_count(sqlite3_stmt *a0) {
    return LAZY(sqlite3_bind_parameter_count)(a0);
}

static void *pointer_sqlite3_bind_text;
int sqlite3_bind_text(sqlite3_stmt *a0, int a1, const char *a2, int a3, void (*a4)(void *)) {
    return LAZY(sqlite3_bind_text)(a0, a1, a2, a3, a4);
}

static void *pointer_sqlite3_bind_text64;
int sqlite3_bind_text64(sqlite3_stmt *a0, int a1, const char *a2, sqlite3_uint64 a3, void (*a4)(void *), unsigned char a5) {
    return LAZY(sqlite3_bind_text64)(a0, a1, a2, a3, a4, a5);
}

static void *pointer_sqlite3_bind_zeroblob;
int sqlite3_bind_zeroblob(sqlite3_stmt *a0, int a1, int a2) {
    return LAZY(sqlite3_bind_zeroblob)(a0, a1, a2);
}

static void *pointer_sqlite3_busy_timeout;
int sqlite3_busy_timeout(sqlite3 *a0, int a1) {
    return LAZY(sqlite3_busy_timeout)(a0, a1);
}

static void *pointer_sqlite3_changes64;
sqlite3_int64 sqlite3_changes64(sqlite3 *a0) {
    return LAZY(sqlite3_changes64)(a0);
}

static void *pointer_sqlite3_clear_bindings;
int sqlite3_clear_bindings(sqlite3_stmt *a0) {
    return LAZY(sqlite3_clear_bindings)(a0);
}

static void *pointer_sqlite3_close_v2;
int sqlite3_close_v2(sqlite3 *a0) {
    return LAZY(sqlite3_close_v2)(a0);
}

static void *pointer_sqlite3_column_blob;
const void *sqlite3_column_blob(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_blob)(a0, a1);
}

static void *pointer_sqlite3_column_bytes;
int sqlite3_column_bytes(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_bytes)(a0, a1);
}

static void *pointer_sqlite3_column_count;
int sqlite3_column_count(sqlite3_stmt *a0) {
    return LAZY(sqlite3_column_count)(a0);
}

static void *pointer_sqlite3_column_double;
double sqlite3_column_double(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_double)(a0, a1);
}

static void *pointer_sqlite3_column_int64;
sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_int64)(a0, a1);
}

static void *pointer_sqlite3_column_name;
const char *sqlite3_column_name(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_name)(a0, a1);
}

static void *pointer_sqlite3_column_text;
const unsigned char *sqlite3_column_text(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_text)(a0, a1);
}

static void *pointer_sqlite3_column_type;
int sqlite3_column_type(sqlite3_stmt *a0, int a1) {
    return LAZY(sqlite3_column_type)(a0, a1);
}

static void *pointer_sqlite3_errmsg;
const char *sqlite3_errmsg(sqlite3 *a0) {
    return LAZY(sqlite3_errmsg)(a0);
}

static void *pointer_sqlite3_errstr;
const char *sqlite3_errstr(int a0) {
    return LAZY(sqlite3_errstr)(a0);
}

static void *pointer_sqlite3_exec;
int sqlite3_exec(sqlite3 *a0, const char *a1, int (*a2)(void *, int, char **, char **), void *a3, char **a4) {
    return LAZY(sqlite3_exec)(a0, a1, a2, a3, a4);
}

static void *pointer_sqlite3_extended_result_codes;
int sqlite3_extended_result_codes(sqlite3 *a0, int a1) {
    return LAZY(sqlite3_extended_result_codes)(a0, a1);
}

static void *pointer_sqlite3_finalize;
int sqlite3_finalize(sqlite3_stmt *a0) {
    return LAZY(sqlite3_finalize)(a0);
}

static void *pointer_sqlite3_get_autocommit;
int sqlite3_get_autocommit(sqlite3 *a0) {
    return LAZY(sqlite3_get_autocommit)(a0);
}

static void *pointer_sqlite3_last_insert_rowid;
sqlite3_int64 sqlite3_last_insert_rowid(sqlite3 *a0) {
    return LAZY(sqlite3_last_insert_rowid)(a0);
}

static void *pointer_sqlite3_libversion;
const char *sqlite3_libversion(void) {
    return LAZY(sqlite3_libversion)();
}

static void *pointer_sqlite3_open_v2;
int sqlite3_open_v2(const char *a0, sqlite3 **a1, int a2, const char *a3) {
    return LAZY(sqlite3_open_v2)(a0, a1, a2, a3);
}

static void *pointer_sqlite3_prepare_v3;
int sqlite3_prepare_v3(sqlite3 *a0, const char *a1, int a2, unsigned int a3, sqlite3_stmt **a4, const char **a5) {
    return LAZY(sqlite3_prepare_v3)(a0, a1, a2, a3, a4, a5);
}

static void *pointer_sqlite3_reset;
int sqlite3_reset(sqlite3_stmt *a0) {
    return LAZY(sqlite3_reset)(a0);
}

static void *pointer_sqlite3_sql;
const char *sqlite3_sql(sqlite3_stmt *a0) {
    return LAZY(sqlite3_sql)(a0);
}

static void *pointer_sqlite3_stmt_readonly;
int sqlite3_stmt_readonly(sqlite3_stmt *a0) {
    return LAZY(sqlite3_stmt_readonly)(a0);
}

static void *pointer_sqlite3_step;
int sqlite3_step(sqlite3_stmt *a0) {
    return LAZY(sqlite3_step)(a0);
}
