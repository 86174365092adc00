// libsqlite3 (libsqlite3-dev), called directly by the benchmark's storage
// reference, so that the reference owes nothing to the server's own code.
#pragma once
#include <sqlite3.h>
