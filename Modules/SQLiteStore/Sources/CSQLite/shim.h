// Headers of sqlite3 (libsqlite3-dev) that SQLiteStore uses.
#pragma once

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<sqlite3.h>)
#error "<sqlite3.h> not found: install the Debian package libsqlite3-dev to build (the program needs libsqlite3-0 to run)"
#endif
#include <sqlite3.h>

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
