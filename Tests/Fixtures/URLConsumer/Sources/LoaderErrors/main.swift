// Run where libcrypto and SQLite cannot be loaded (tools/url-consumer puts
// files that are not libraries first on LD_LIBRARY_PATH): ShareKit throws
// errors naming the Debian package to install, and the program goes on.
import ShareKitOpenSSLCrypto
import ShareKitSQLiteStore

var failures = 0
do {
    _ = try OpenSSLCryptoProvider().randomBytes(count: 16)
    print("libcrypto: loaded")
} catch {
    print("libcrypto: \(error)")
    if "\(error)".contains("libssl3") { failures += 1 }
}
do {
    _ = try SQLiteDatabase.inMemory()
    print("SQLite: loaded")
} catch {
    print("SQLite: \(error)")
    if "\(error)".contains("libsqlite3-0") { failures += 1 }
}
print("errors naming the package: \(failures) of 2; still running")
