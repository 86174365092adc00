import SQLiteStore
@preconcurrency import CSQLite

print(sqlite3_libversion_number())
