// Headers of sqlite3 (libsqlite3-dev) that SQLiteStore uses.
#pragma once
#include <sqlite3.h>
