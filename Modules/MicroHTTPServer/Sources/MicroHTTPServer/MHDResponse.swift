import CShareKitMicroHTTPD
import Glibc
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes

/// Turns an ``ShareKitHTTPServerInterface/HTTPResponse`` into a libmicrohttpd response.
enum MHDResponse {
    /// A libmicrohttpd response, or why none could be made.
    enum Made {
        /// The response (the caller destroys it after queueing).
        case response(OpaquePointer)
        /// A handler bug: the caller answers 500 and logs it.
        case failed(ResponseFailure)
    }

    /// Makes the libmicrohttpd response (the caller destroys it after queueing).
    /// - Parameters:
    ///   - response: the handler's response.
    ///   - requestID: sent as `X-Request-Id` unless the handler set one.
    ///   - closeConnection: add `Connection: close` (the server is stopping).
    ///   - memory: where a large in-memory body was counted (its bytes are
    ///     then read from the answer, not copied, and released when
    ///     libmicrohttpd is done); nil to copy the body.
    /// - Returns: the response, or the ``ResponseFailure`` when it cannot be sent as given.
    static func make(
        _ response: HTTPResponse, requestID: String, closeConnection: Bool, memory: ResponseMemory? = nil
    ) -> Made {
        guard (200...599).contains(response.status.rawValue) else {
            if let memory, case .bytes(let bytes) = response.body { memory.release(bytes.count) }
            return .failed(.invalidStatus(response.status.rawValue))
        }
        let made: OpaquePointer
        if let memory, case .bytes(let bytes) = response.body {
            guard let held = HeldAnswer(bytes, memory: memory).response() else { return .failed(.outOfMemory) }
            made = held
        } else {
            switch body(response.body) {
            case .response(let response): made = response
            case .failed(let failure): return .failed(failure)
            }
        }
        for field in response.headers {
            // The engine frames the body; a handler's framing headers would
            // contradict it.
            let lower = field.name.lowercased()
            if lower == "content-length" || lower == "transfer-encoding" { continue }
            guard MHD_add_response_header(made, field.name, field.value) == .YES else {
                MHD_destroy_response(made)
                return .failed(.invalidHeader(name: field.name))
            }
        }
        if !response.headers.contains("X-Request-Id") {
            _ = MHD_add_response_header(made, "X-Request-Id", requestID)
        }
        if closeConnection {
            _ = MHD_add_response_header(made, "Connection", "close")
        }
        return .response(made)
    }

    private static func body(_ body: HTTPResponseBody) -> Made {
        switch body {
        case .empty:
            guard let made = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) else {
                return .failed(.outOfMemory)
            }
            return .response(made)
        case .bytes(let bytes):
            let made = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
            guard let made else { return .failed(.outOfMemory) }
            return .response(made)
        case .file(let path, let offset, let length):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return .failed(.fileUnavailable(path: path, errno: errno)) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let code = errno
                close(fd)
                return .failed(.fileUnavailable(path: path, errno: code))
            }
            let size = UInt64(max(0, info.st_size))
            let count = length ?? (size >= offset ? size - offset : 0)
            guard offset <= size, count <= size - offset else {
                close(fd)
                return .failed(.fileRange(path: path))
            }
            // libmicrohttpd owns the descriptor from here and closes it
            // with the response.
            guard let made = MHD_create_response_from_fd_at_offset64(count, fd, offset) else {
                close(fd)
                return .failed(.outOfMemory)
            }
            return .response(made)
        }
    }
}
