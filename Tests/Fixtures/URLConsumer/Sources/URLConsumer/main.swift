// Uses DPoP, KeychainStore and Uploads through their public API only: a
// device key kept in a file keychain, a DPoP proof signed with it, and a
// file described as an upload source.
import DPoP
import Foundation
import KeychainStore
import OpenSSLCrypto
import Uploads

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
