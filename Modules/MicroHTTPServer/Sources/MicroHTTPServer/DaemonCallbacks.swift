import CShareKitMicroHTTPD
import CShareKitMicroHTTPDShim
import ShareKitHTTPServerInterface

/// The functions libmicrohttpd calls, from its own threads. They are
/// nonisolated static functions (never closures of an actor-isolated
/// context, which would trap on a foreign thread) and find their state
/// through the `cls` pointers: the daemon's ``ServerCore`` (unretained; the
/// running daemon owns it) and the request's ``RequestContext`` (retained
/// from the URI callback to the completion callback).
enum DaemonCallbacks {
    /// `MHD_OPTION_URI_LOG_CALLBACK`: the first sight of a request, with its
    /// target exactly as sent. Its result becomes the request's `*con_cls`.
    static let uriLog: CMHDShimURILogHandler = { context, uri, connection in
        guard let context else { return nil }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        return core.begin(uri: uri.map { String(cString: $0) } ?? "/", connection: key(connection))
    }

    /// `MHD_OPTION_NOTIFY_CONNECTION`: a connection was accepted (on the
    /// accepting thread) or is gone (its socket is closed right after).
    static let connection: MHD_NotifyConnectionCallback = { context, connection, _, event in
        guard let context, let connection else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        switch event {
        case .CONNECTION_NOTIFY_STARTED:
            let address = cmhd_shim_client_address(connection).flatMap { SocketAddress.remote($0) }?.host ?? ""
            core.connections.opened(key(connection), fd: cmhd_shim_connection_fd(connection), address: address)
        default:
            core.connections.closed(key(connection))
        }
    }

    /// The shim's report of a `Content-Length` libmicrohttpd cannot use, on
    /// the connection's thread before libmicrohttpd answers it.
    static let malformedLength: CMHDShimMalformedLengthHandler = { context, connection, _, status in
        guard let context, let connection else { return }
        Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().malformedContentLength(
            connection: key(connection), tooLarge: status == 413)
    }

    /// The key of a connection in the ``ConnectionGuard``: its address.
    static func key(_ connection: OpaquePointer?) -> UInt {
        UInt(bitPattern: connection.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0)
    }

    /// The access handler: head, body chunks, end of body.
    static let access: MHD_AccessHandlerCallback = {
        context, connection, _, method, version, upload, uploadSize, requestContext in
        guard let context, let connection, let uploadSize, let state = requestContext?.pointee else {
            return .NO
        }
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let request = Unmanaged<RequestContext>.fromOpaque(state).takeUnretainedValue()
        return core.access(
            request, connection: connection, method: method.map { String(cString: $0) } ?? "GET",
            version: version.map { String(cString: $0) } ?? "HTTP/1.1", upload: upload, uploadSize: uploadSize)
    }

    /// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (answered, or the
    /// connection died, timed out or was closed by a stop).
    static let completed: MHD_RequestCompletedCallback = { context, _, requestContext, termination in
        guard let context, let requestContext, let state = requestContext.pointee else { return }
        requestContext.pointee = nil
        let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
        let request = Unmanaged<RequestContext>.fromOpaque(state).takeRetainedValue()
        core.complete(request, termination: termination)
    }

    /// `MHD_OPTION_EXTERNAL_LOGGER`, formatted by the C shim.
    static let log: CMHDShimLogHandler = { context, message in
        guard let context, let message else { return }
        Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().engineMessage(String(cString: message))
    }
}
