// Headers of sqlite3 (libsqlite3-dev) that SQLiteStore uses.
#pragma once
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. SQLite counts every
// allocation under one process-wide mutex unless told not to, and nothing
// here reads the counts; this must run before SQLite initializes (the first
// sqlite3_open), later it changes nothing and returns SQLITE_MISUSE.
static inline int sharekit_sqlite3_config_no_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
