import Foundation
import ShareKitDPoP
import ShareKitSystemTesting
import ShareKitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real `share-server` process against clients that abuse connections:
/// pages of large messages that are never read, request lines full of
/// escape codes. What a user (or an operator reading the log) would notice.
@Suite("share-server: clients that hold memory or write to the log", .serialized)
struct HostileConnectionTests {
    /// 64 KiB of U+0001: the largest text, written `\u0001` (six bytes per
    /// character) in JSON, so one message is 384 KiB of a page.
    static let largeText = String(repeating: "\u{1}", count: 65_536)
    static let thread = "/api/v1/threads/t1/messages"

    @Test("a page of large messages holds what fits in 1 MiB; next leads to the rest, in order")
    func pageIsBounded() async throws {
        let server = try await ServerProcess.start(.sqlite, seed: UploadFlow.seed())
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        for index in 0..<8 {
            let sent = try await UploadFlow.message(alex, Self.thread, id: "large-\(index)", text: Self.largeText)
            #expect(sent.status == 201)
        }
        var ids: [String] = []
        var after: String?
        var pages = 0
        repeat {
            let page = try await alex.send("GET", Self.thread + (after.map { "?after=\($0)" } ?? ""))
            #expect(page.status == 200)
            #expect(page.body.count <= 1 << 20, "a page of \(page.body.count) bytes")
            let messages = page.object["messages"] as? [[String: Any]] ?? []
            #expect(!messages.isEmpty)
            #expect(messages.allSatisfy { $0["text"] as? String == Self.largeText })
            ids += messages.compactMap { $0["client_msg_id"] as? String }
            after = page.object["next"] as? String
            pages += 1
        } while after != nil && pages < 20
        #expect(ids == (0..<8).map { "large-\($0)" })
        #expect(pages == 4, "two messages of 384 KiB fit in a page")
    }

    @Test("forty connections that never read a page of large messages: the server's memory stays bounded")
    func unreadPagesAreBounded() async throws {
        let server = try await ServerProcess.start(
            .sqlite, seed: UploadFlow.seed(),
            extraArguments: ["--max-connections-per-address", "0", "--max-response-memory", "8"])
        defer { server.stop() }
        let alex = try await UploadFlow.client(server, "alex")
        for index in 0..<20 {
            let sent = try await UploadFlow.message(alex, Self.thread, id: "large-\(index)", text: Self.largeText)
            #expect(sent.status == 201)
        }
        // One page read whole first: the server's caches and pools are warm.
        #expect(try await alex.send("GET", Self.thread).status == 200)
        let before = try Self.residentKiB(server.pid)
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        var statuses: [Int] = []
        for _ in 0..<40 {
            let fd = try Self.unreadingRequest(to: server, path: Self.thread, client: alex)
            held.append(fd)
            statuses.append(Self.status(Self.readHead(fd)))
        }
        let growth = try Self.residentKiB(server.pid) - before
        print("share-server resident memory grew by \(growth) KiB for 40 unread pages; statuses \(statuses)")
        // A page of at most 1 MiB mostly fits in the kernel's socket
        // buffers; what does not counts against the 8 MiB for answers not
        // taken, past which a page is answered 503.
        #expect(Set(statuses).isSubset(of: [200, 503]), "\(statuses)")
        // At most 8 MiB of held answers, a page being built, forty threads:
        // far below forty whole pages in memory (40 x 7.5 MiB unbounded).
        #expect(growth < 32 * 1024, "grew by \(growth) KiB")
        for fd in held { close(fd) }
        held = []
        #expect(try await alex.send("GET", Self.thread).status == 200)
    }

    @Test("a request line full of escape codes reaches the request log escaped")
    func logIsNeutralised() async throws {
        let server = try await ServerProcess.start(.sqlite, seed: UploadFlow.seed())
        defer { server.stop() }
        let fd = try Self.connect(to: server)
        defer { close(fd) }
        Self.write(
            fd,
            Array("GET /\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(Self.status(Self.readHead(fd)) == 400)
        // The line is written when the request ends, after the answer.
        let deadline = ContinuousClock.now + .seconds(20)
        while !server.log.contains("owned"), ContinuousClock.now < deadline { usleep(10_000) }
        let log = server.log
        #expect(log.contains("owned"), "\(log)")
        let unsafe = log.unicodeScalars.filter { $0 != "\n" && $0.properties.generalCategory == .control }
        #expect(unsafe.isEmpty, "\(log.debugDescription)")
        #expect(log.contains("\\u{1B}]0;owned\\u{07}"), "\(log)")
    }

    // MARK: - Raw connections

    /// A connection to the server whose receive window is tiny, so what the
    /// server sends stays with the server.
    static func connect(to server: ServerProcess, receiveBuffer: Int32? = nil) throws -> Int32 {
        guard let url = URL(string: server.origin), let port = url.port else { throw ServerProcessError("origin") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerProcessError("socket: errno \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw ServerProcessError("connect: errno \(code)")
        }
        return fd
    }

    /// Sends a signed `GET path` as `client` over a connection that will
    /// never read more than the answer's head.
    static func unreadingRequest(to server: ServerProcess, path: String, client: TestClient) throws -> Int32 {
        let token = try #require(client.accessToken)
        let proof = try client.signer.makeProof(
            method: "GET", url: server.origin + path, accessToken: token, nonce: client.nonce)
        let fd = try connect(to: server, receiveBuffer: 4096)
        Self.write(
            fd,
            Array(
                "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: DPoP \(token)\r\nDPoP: \(proof)\r\n\r\n".utf8
            ))
        return fd
    }

    /// Writes all of `bytes`, or what the server takes before it closes.
    static func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Reads byte by byte up to the end of a response head, and no further.
    static func readHead(_ fd: Int32) -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 65536, recv(fd, &byte, 1, 0) == 1 {
            head.append(byte)
            if head.suffix(4) == [13, 10, 13, 10] { break }
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// The status code of a response head, 0 when there is none.
    static func status(_ head: String) -> Int {
        head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    /// A process's resident memory (VmRSS), KiB.
    static func residentKiB(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
