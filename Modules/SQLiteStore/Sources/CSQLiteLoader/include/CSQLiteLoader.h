// CSQLiteLoader defines SQLite's functions (see loader.c) and opens the
// library on request, for an error instead of the end of the program.
#pragma once

#include <stddef.h>

/// Opens libsqlite3 unless it is open. Returns 0, or -1 with "libsqlite3 could
/// not be loaded: <reason> (install the Debian package libsqlite3-0)" in
/// `message` (`capacity` bytes, NUL-terminated): SQLiteStore calls it
/// before opening a database and throws that message, so a host without
/// SQLite gets an error instead of the wrappers' exit 127.
int sk_sqlite_library_load(char *message, size_t capacity);
