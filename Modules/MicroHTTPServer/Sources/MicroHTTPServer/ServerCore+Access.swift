import CShareKitMicroHTTPD
import CShareKitMicroHTTPDShim
import ShareKitHTTPServerInterface
import ShareKitHTTPTypes
import Synchronization

extension ServerCore {
    /// One call of libmicrohttpd's access handler for a request: first with
    /// the complete head, then once per body chunk, then once with no data
    /// when the body is complete (RFC-conformant framing is libmicrohttpd's
    /// job; this only routes the pieces).
    /// - Parameters:
    ///   - request: the request's state.
    ///   - connection: the libmicrohttpd connection.
    ///   - method: the method as sent.
    ///   - version: the protocol version as sent.
    ///   - upload: the chunk, when there is one.
    ///   - uploadSize: the chunk's size in, the bytes not consumed out (always 0).
    /// - Returns: `.NO` to close the connection without (further) answer.
    func access(
        _ request: RequestContext, connection: OpaquePointer, method: String, version: String,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        switch request.phase {
        case .awaitingHead:
            let head = makeHead(request, connection: connection, method: method, version: version)
            request.head = head
            switch connections.headArrived(request.connection) {
            case .proceed:
                break
            case .refuse:
                request.failure = "refused: the server had no free connection"
                let problem = ConnectionGuard.busyProblem
                return queue(
                    problem.response(headers: [
                        "Retry-After": String(configuration.busyRetryAfterSeconds), "Connection": "close",
                    ]), for: request, on: connection)
            case .closed:
                request.failure = "closed by the connection guard before the head was complete"
                return .NO
            }
            if let problem = HeadCheck.problem(
                head, target: request.target, headSize: cmhd_shim_request_header_size(connection),
                configuration: configuration)
            {
                return queue(problem.response(headers: ["Connection": "close"]), for: request, on: connection)
            }
            if let problem = RequestLineCheck.problem(method: method, target: request.target) {
                return queue(problem.response(), for: request, on: connection)
            }
            let disposition: HTTPBodyDisposition
            do {
                disposition = try handler.prepare(for: head)
            } catch {
                return queue(errorResponse(for: error, request: request), for: request, on: connection)
            }
            switch disposition {
            case .reject(let response):
                return queue(response, for: request, on: connection)
            case .buffer(let maxBytes):
                // A declared length over the limit is refused before the
                // body is read (and before `100 Continue` is sent).
                if let declared = declaredContentLength(connection) {
                    guard declared <= UInt64(max(0, maxBytes)) else {
                        return queue(Self.tooLarge(maxBytes).response(), for: request, on: connection)
                    }
                    request.body.reserveCapacity(Int(declared))
                }
                request.phase = .buffering(maxBytes: max(0, maxBytes))
            case .stream(let sink):
                request.phase = .streaming(sink)
            }
            return .YES

        case .buffering(let maxBytes):
            guard size == 0 else {
                guard connections.bodyArrived(request.connection, bytes: size) else { return .NO }
                request.bodyBytes += UInt64(size)
                if request.body.count + size > maxBytes {
                    request.body = []
                    request.phase = .discarding(Self.tooLarge(maxBytes).response())
                    return discard(size, for: request)
                }
                if let upload {
                    request.body.append(
                        contentsOf: UnsafeRawBufferPointer(start: UnsafeRawPointer(upload), count: size))
                }
                return .YES
            }
            // From here the handler works without a deadline.
            guard connections.bodyComplete(request.connection) else { return .NO }
            let body = request.body
            request.body = []
            guard let head = request.head else { return .NO }
            let response: HTTPResponse
            do {
                response = try handler.respond(to: head, body: body)
            } catch {
                response = errorResponse(for: error, request: request)
            }
            return queue(response, for: request, on: connection)

        case .streaming(let sink):
            guard size == 0 else {
                // A connection the guard closed: the completion callback
                // aborts the sink.
                guard connections.bodyArrived(request.connection, bytes: size) else { return .NO }
                request.bodyBytes += UInt64(size)
                do {
                    try sink.write(UnsafeRawBufferPointer(start: upload.map(UnsafeRawPointer.init), count: size))
                } catch {
                    request.phase = .discarding(errorResponse(for: error, request: request))
                    sink.abort(.sinkFailed)
                }
                return .YES
            }
            guard connections.bodyComplete(request.connection) else { return .NO }
            // From here the sink has had its finish(); the completion
            // callback must not abort it as well.
            request.phase = .responded
            let response: HTTPResponse
            do {
                response = try sink.finish()
            } catch {
                response = errorResponse(for: error, request: request)
            }
            return queue(response, for: request, on: connection)

        case .discarding(let response):
            guard size == 0 else {
                guard connections.bodyArrived(request.connection, bytes: size) else { return .NO }
                request.bodyBytes += UInt64(size)
                return discard(size, for: request)
            }
            guard connections.bodyComplete(request.connection) else { return .NO }
            return queue(response, for: request, on: connection)

        case .responded:
            return .YES
        }
    }

    // MARK: - Head

    private func makeHead(
        _ request: RequestContext, connection: OpaquePointer, method: String, version: String
    ) -> HTTPRequestHead {
        var fields: [HTTPField] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(
                connection, .HEADER_KIND,
                { context, _, key, keySize, value, valueSize in
                    guard let context, let key else { return .YES }
                    let name = String(
                        decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(key), count: keySize), as: UTF8.self)
                    let text =
                        value.map {
                            String(
                                decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer($0), count: valueSize),
                                as: UTF8.self)
                        } ?? ""
                    context.assumingMemoryBound(to: [HTTPField].self).pointee.append(
                        HTTPField(name: name, value: text))
                    return .YES
                }, pointer)
        }
        let remote = cmhd_shim_client_address(connection).flatMap { SocketAddress.remote($0) }
        return HTTPRequestHead(
            method: HTTPMethod(rawValue: method), target: request.target, version: version,
            headers: HTTPFields(fields), remoteAddress: remote, isSecure: isSecure, requestID: request.requestID)
    }

    private func declaredContentLength(_ connection: OpaquePointer) -> UInt64? {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else {
            return nil
        }
        return UInt64(String(cString: value))
    }

    // MARK: - Refusals

    /// Reads and drops a chunk of a refused body, closing the connection
    /// once more than the configured amount was dropped.
    private func discard(_ size: Int, for request: RequestContext) -> MHD_Result {
        request.discardedBytes += size
        guard request.discardedBytes <= configuration.maxDiscardedBodyBytes else {
            request.failure =
                "closed the connection: more than \(configuration.maxDiscardedBodyBytes) bytes of a refused body"
            return .NO
        }
        return .YES
    }

    /// The 413 answer for a buffered body over its limit.
    static func tooLarge(_ maxBytes: Int) -> HTTPProblem {
        HTTPProblem(
            status: .contentTooLarge, code: "body_too_large", title: "Content Too Large",
            detail: "The request body is larger than the \(maxBytes) bytes this endpoint accepts.")
    }

    /// The answer for an error a handler or sink threw: a problem as it is,
    /// anything else a 500 whose cause goes to the log, not to the client.
    func errorResponse(for error: any Error, request: RequestContext) -> HTTPResponse {
        if let problem = error as? HTTPProblem { return problem.response() }
        request.failure = String(describing: error)
        return Self.internalError(request.requestID).response()
    }

    /// The 500 answer for a failure inside the server.
    static func internalError(_ requestID: String) -> HTTPProblem {
        HTTPProblem(
            status: .internalServerError, code: "internal_error", title: "Internal Server Error",
            detail: "The server failed while handling this request (request id \(requestID)).")
    }

    // MARK: - Responses

    /// Hands a response to libmicrohttpd. A response the engine cannot send
    /// as given (bad status, bad header, missing file) is replaced by a 500;
    /// a large answer to a `GET` or `HEAD` past the memory for answers not
    /// yet taken (``ResponseMemory``) by a `503 server_busy`.
    private func queue(_ response: HTTPResponse, for request: RequestContext, on connection: OpaquePointer)
        -> MHD_Result
    {
        request.phase = .responded
        connections.responding(request.connection)
        let closing = stopping.load(ordering: .relaxed)
        var sent = response
        var memory: ResponseMemory?
        if case .bytes(let bytes) = response.body, bytes.count > ResponseMemory.threshold {
            // Asking again costs nothing for a GET; any other request has
            // had its effect, and its answer goes out whatever it costs.
            let method = request.head?.method
            let repeatable = method == .get || method == .head
            let held = responseMemory.held
            if responseMemory.reserve(bytes.count, always: !repeatable) {
                memory = responseMemory
            } else {
                request.failure =
                    "refused: answers not yet taken by their clients held \(held) bytes of \(responseMemory.maximum); "
                    + "this one was \(bytes.count)"
                sent = ResponseMemory.busyProblem.response(headers: [
                    "Retry-After": String(configuration.busyRetryAfterSeconds)
                ])
                sent.routeTemplate = response.routeTemplate
            }
        }
        let made: OpaquePointer
        switch MHDResponse.make(sent, requestID: request.requestID, closeConnection: closing, memory: memory) {
        case .response(let response):
            made = response
        case .failed(let error):
            request.failure = error.description
            sent = Self.internalError(request.requestID).response()
            sent.routeTemplate = response.routeTemplate
            if case .fileUnavailable = error {
                sent = HTTPProblem(
                    status: .internalServerError, code: "response_file_unavailable", title: "Internal Server Error",
                    detail: "The server could not read the response body (request id \(request.requestID))."
                )
                .response()
            }
            guard
                case .response(let fallback) = MHDResponse.make(
                    sent, requestID: request.requestID, closeConnection: closing)
            else { return .NO }
            made = fallback
        }
        defer { MHD_destroy_response(made) }
        request.status = sent.status
        request.routeTemplate = response.routeTemplate
        return MHD_queue_response(connection, UInt32(sent.status.rawValue), made)
    }
}
