// The application's own use of libcrypto and SQLite, beside ShareKit's:
// libcrypto linked as a shared library (the module map's `link "crypto"`),
// SQLite linked statically from libsqlite3.a (Package.swift), as apps that
// ship their own SQLite do. A static SQLite brings every function of its
// archive members into the program, so a ShareKit wrapper named like one of
// them would be a `multiple definition` at link time.
#pragma once
#include <openssl/sha.h>
#include <sqlite3.h>
