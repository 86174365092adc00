// The functions of this library that the module's loader defines as wrappers
// (loaded on first use, docs/adr/0019), each declared again here with the
// link name `sharekit_<name>`: Swift and C callers keep writing the library's
// own name, but the symbol in the binary is ShareKit's, so it cannot clash with
// an application that links the library itself (docs/adr/0030). Included
// after the library's headers by the module's shim.h and by the loader, so
// both sides agree on the link name; tools/symbol-check fails when a wrapper
// is missing here.
#pragma once
#ifndef SHAREKIT_WRAPPED
#define SHAREKIT_WRAPPED(name) __typeof__(name) name __asm__("sharekit_" #name);
#endif
SHAREKIT_WRAPPED(sqlite3_bind_blob64)
SHAREKIT_WRAPPED(sqlite3_bind_double)
SHAREKIT_WRAPPED(sqlite3_bind_int64)
SHAREKIT_WRAPPED(sqlite3_bind_null)
SHAREKIT_WRAPPED(sqlite3_bind_parameter_count)
SHAREKIT_WRAPPED(sqlite3_bind_text)
SHAREKIT_WRAPPED(sqlite3_bind_text64)
SHAREKIT_WRAPPED(sqlite3_bind_zeroblob)
SHAREKIT_WRAPPED(sqlite3_busy_timeout)
SHAREKIT_WRAPPED(sqlite3_changes64)
SHAREKIT_WRAPPED(sqlite3_clear_bindings)
SHAREKIT_WRAPPED(sqlite3_close_v2)
SHAREKIT_WRAPPED(sqlite3_column_blob)
SHAREKIT_WRAPPED(sqlite3_column_bytes)
SHAREKIT_WRAPPED(sqlite3_column_count)
SHAREKIT_WRAPPED(sqlite3_column_double)
SHAREKIT_WRAPPED(sqlite3_column_int64)
SHAREKIT_WRAPPED(sqlite3_column_name)
SHAREKIT_WRAPPED(sqlite3_column_text)
SHAREKIT_WRAPPED(sqlite3_column_type)
SHAREKIT_WRAPPED(sqlite3_errmsg)
SHAREKIT_WRAPPED(sqlite3_errstr)
SHAREKIT_WRAPPED(sqlite3_exec)
SHAREKIT_WRAPPED(sqlite3_extended_result_codes)
SHAREKIT_WRAPPED(sqlite3_finalize)
SHAREKIT_WRAPPED(sqlite3_get_autocommit)
SHAREKIT_WRAPPED(sqlite3_last_insert_rowid)
SHAREKIT_WRAPPED(sqlite3_libversion)
SHAREKIT_WRAPPED(sqlite3_open_v2)
SHAREKIT_WRAPPED(sqlite3_prepare_v3)
SHAREKIT_WRAPPED(sqlite3_reset)
SHAREKIT_WRAPPED(sqlite3_sql)
SHAREKIT_WRAPPED(sqlite3_step)
SHAREKIT_WRAPPED(sqlite3_stmt_readonly)
