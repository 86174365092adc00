import Foundation
import ShareKitSecureFiles
import ShareKitSystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The durable write steps and the flock wrapper of SecureFiles, on real files.
@Suite("secure files: durable writes and locks")
struct DurableFileTests {
    /// A fresh private directory, removed after `body`.
    private func withDirectory(_ body: (String) throws -> Void) throws {
        var template = Array((NSTemporaryDirectory() + "/durable-file-XXXXXX").utf8CString)
        let path = try #require(
            template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer {
            chmod(path, 0o700)
            try? FileManager.default.removeItem(atPath: path)
        }
        try body(path)
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    @Test("replace leaves the whole file after the rename, 0600, and no temporary")
    func replaceLeavesTheFile() throws {
        try withDirectory { directory in
            let path = directory + "/state.json"
            try DurableFile.replace(path, with: Array("first".utf8))
            #expect(contents(path) == Array("first".utf8))
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
            // A hard link to the old file keeps the old bytes: the new file came in by rename.
            #expect(link(path, directory + "/old") == 0)
            let big = [UInt8](repeating: 7, count: 3 << 20)
            try DurableFile.replace(path, with: big, mode: 0o640)
            #expect(contents(path) == big)
            #expect(contents(directory + "/old") == Array("first".utf8))
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o640)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(names == ["old", "state.json"], "no temporary is left behind")
        }
    }

    @Test("writeAll writes every byte, at the offset or at the file's position; commit renames and syncs")
    func writeAllAndCommit() throws {
        try withDirectory { directory in
            let temporary = directory + "/part.tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            #expect(fd >= 0)
            try DurableFile.writeAll(fd, Array("hello ".utf8), path: temporary)
            let tail = Array("world".utf8)
            try tail.withUnsafeBytes { try DurableFile.writeAll(fd, $0, at: 6, path: temporary) }
            try DurableFile.sync(fd, path: temporary)
            close(fd)
            try DurableFile.commit(temporary, to: directory + "/part")
            #expect(contents(directory + "/part") == Array("hello world".utf8))
            #expect(!FileManager.default.fileExists(atPath: temporary))
            try DurableFile.syncDirectory(directory)
        }
    }

    @Test("a directory that cannot be written is an io error naming the step", .enabled(if: geteuid() != 0))
    func readOnlyDirectory() throws {
        try withDirectory { directory in
            #expect(chmod(directory, 0o500) == 0)
            #expect {
                try DurableFile.replace(directory + "/state.json", with: [1, 2, 3])
            } throws: { error in
                guard case .io(let operation, _, let code) = error as? SecureFileError else { return false }
                return operation == "create" && code == EACCES
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/state.json"))
        }
    }

    @Test("no one can create files in /proc, not even root: an io error, nothing written")
    func unwritableDirectory() {
        #expect {
            try DurableFile.replace("/proc/durable-file-test", with: [1])
        } throws: { error in
            guard case .io(let operation, let path, _) = error as? SecureFileError else { return false }
            return operation == "create" && path.hasPrefix("/proc/")
        }
    }

    @Test("missing directories and failed renames are io errors")
    func missing() throws {
        try withDirectory { directory in
            #expect(throws: SecureFileError.self) { try DurableFile.syncDirectory(directory + "/missing") }
            #expect(throws: SecureFileError.self) {
                try DurableFile.replace(directory + "/missing/file", with: [1])
            }
            #expect {
                try DurableFile.commit(directory + "/nothing", to: directory + "/file")
            } throws: { error in
                guard case .io(let operation, _, let code) = error as? SecureFileError else { return false }
                return operation == "rename" && code == ENOENT
            }
        }
    }

    @Test("flock: exclusive excludes a second descriptor, shared locks share, closing releases")
    func locks() throws {
        try withDirectory { directory in
            let path = directory + "/lock"
            let first = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            let second = open(path, O_RDWR | O_CLOEXEC)
            defer { close(second) }
            let firstHeld = try FileLock.lock(first, exclusive: true, wait: false, path: path)
            #expect(firstHeld)
            let secondWhileHeld = try FileLock.lock(second, exclusive: false, wait: false, path: path)
            #expect(!secondWhileHeld, "an exclusive lock keeps a second descriptor out")
            close(first)
            let secondAfter = try FileLock.lock(second, exclusive: false, wait: false, path: path)
            #expect(secondAfter, "closing the descriptor released the lock")
            let third = open(path, O_RDWR | O_CLOEXEC)
            defer { close(third) }
            let thirdShared = try FileLock.lock(third, exclusive: false, wait: true, path: path)
            #expect(thirdShared, "shared locks share")
            #expect(throws: SecureFileError.self) { try FileLock.lock(-1, exclusive: true, wait: false, path: path) }
        }
    }

    @Test("early write-back: found on Linux; a file written window by window keeps every byte and syncs")
    func earlyWriteback() throws {
        #if os(Linux)
            // sync_file_range is looked up by name at run time; a lookup that
            // no longer finds it would silently turn the write-back off.
            #expect(EarlyWriteback.isAvailable)
        #endif
        try withDirectory { directory in
            let path = directory + "/copy"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            try #require(fd >= 0)
            defer { close(fd) }
            var writeback = EarlyWriteback(window: 64 << 10)
            var expected: [UInt8] = []
            for index in 0..<40 {
                let chunk = [UInt8](repeating: UInt8(index), count: 10_000)
                try DurableFile.writeAll(fd, chunk, path: path)
                expected += chunk
                writeback.wrote(fd, upTo: Int64(expected.count))
            }
            try DurableFile.sync(fd, path: path)
            #expect(contents(path) == expected)
            // A descriptor that is not open is ignored (the caller's fsync reports errors).
            var closed = EarlyWriteback(window: 1)
            closed.wrote(-1, upTo: 1 << 20)
            #expect(closed.window == 64 << 10, "windows below 64 KiB count as 64 KiB")
        }
    }
}
