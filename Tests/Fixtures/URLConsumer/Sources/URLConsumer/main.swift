// Uses DPoP, KeychainStore, Uploads and SQLiteStore through their public API only: a
// device key kept in a file keychain, a DPoP proof signed with it, and a
// file described as an upload source, a database; and libcrypto and SQLite of its own.
import CAppLibraries
import Crypto
import Foundation
import HTTPTypes
import ShareKitDPoP
import ShareKitKeychainStore
import ShareKitOpenSSLCrypto
import ShareKitSQLiteStore
import ShareKitUploads

let directory = NSTemporaryDirectory() + "url-consumer-\(ProcessInfo.processInfo.processIdentifier)"
defer { try? FileManager.default.removeItem(atPath: directory) }
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)

let keychain = FileKeychain(directory: directory + "/keychain")
let keys = DeviceKeyStore(
    secretStore: keychain, item: DeviceKeyStore.defaultItem(accessGroup: "url-consumer"),
    crypto: OpenSSLCryptoProvider())
let signer = try keys.proofSigner()
let proof = try signer.makeProof(
    method: "POST", url: "https://chat.example/api/v1/uploads", accessToken: nil, nonce: nil)
print("proof: \(proof.split(separator: ".").count) parts, jkt: \(signer.thumbprint)")

let file = directory + "/note.txt"
FileManager.default.createFile(atPath: file, contents: Data("hello".utf8))
let source = try UploadFile.source(path: file, contentType: "text/plain")
print("upload source: \(source.fileName), \(source.identity.size) bytes")

// The application's own libcrypto and SQLite, beside ShareKit's wrappers of the same functions.
let digest = try OpenSSLCryptoProvider().sha256(contentsOf: Array("abc".utf8))
var own = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
_ = SHA256(Array("abc".utf8), 3, &own)
guard own == digest else { fatalError("libcrypto's SHA256 and ShareKit's differ") }
var handle: OpaquePointer?
guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { fatalError("the application's SQLite did not open") }
sqlite3_close(handle)
let database = try SQLiteDatabase(path: directory + "/notes.db")
try database.migrate(["CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"])
_ = try database.execute("INSERT INTO notes (body) VALUES (?)", ["hello"])
let rows = try database.query("SELECT body FROM notes")
try database.close()
print("own libcrypto and SQLite \(String(cString: sqlite3_libversion())) beside ShareKit's: \(rows.count) row")
print("beside \(HTTPTypesStandIn.name) of swift-http-types and \(CryptoStandIn.name) of swift-crypto")
