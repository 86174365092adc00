import CShareKitCurl
import CShareKitCurlShim
import CShareKitLazyLibrary
import Glibc
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import Synchronization

/// One libcurl multi handle driven by a dedicated thread: every transfer of
/// a ``CurlHTTPClient`` is an easy handle added to it.
///
/// Why one thread with a multi handle rather than a thread per transfer:
/// the multi handle owns one connection cache that all transfers share,
/// which libcurl does not support across threads (a share object's
/// `CURL_LOCK_DATA_CONNECT` is documented as unsupported between concurrent
/// threads); it multiplexes HTTP/2 streams; and `curl_multi_wakeup` lets a
/// cancellation end a stalled transfer at once instead of at the next
/// progress tick. The thread is not one of Swift concurrency's, so a long
/// transfer never holds up the cooperative pool. All easy-handle work, and
/// every libcurl callback, happens on this thread.
final class CurlEventLoop: @unchecked Sendable {
    /// What other threads hand to the loop; guarded by ``inbox``.
    private struct Inbox {
        var added: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var stopping = false
        /// Set by the loop thread just before it cleans up the multi handle:
        /// from then on nobody may call `curl_multi_wakeup`.
        var closed = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    /// Transfers attached to the multi handle, by easy handle. Loop thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// The loop's thread as work the program's exit stops and waits for
    /// (`lazy_library_work_begin`); set before the thread starts.
    private var work = 0

    /// Makes the multi handle and starts the thread.
    /// - Parameter configuration: connection limits.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError/transportFailure(_:)`` when libcurl
    ///   cannot be initialized or the thread cannot be started.
    init(configuration: CurlHTTPClient.Configuration) throws(HTTPClientError) {
        if let failure = CurlLibrary.initializationFailure {
            throw .transportFailure("libcurl could not be initialized: \(failure)")
        }
        guard let multi = ccurl_multi_init() else {
            throw .transportFailure("libcurl could not make a multi handle")
        }
        self.multi = multi
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maxIdleConnections)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        // The program's exit stops the loop and waits until it has cleaned up
        // (its connections use OpenSSL, which `exit` tears down); a program
        // that is ending starts no loop. The context stays valid while the
        // work is registered: the thread holds the loop until after it ends.
        work = lazy_library_work_begin(
            { context in Unmanaged<CurlEventLoop>.fromOpaque(context!).takeUnretainedValue().shutdown() },
            Unmanaged.passUnretained(self).toOpaque())
        guard work > 0 else {
            ccurl_multi_cleanup(multi)
            throw .transportFailure("the program is ending: no request is sent any more")
        }
        // The thread owns a reference to the loop until it exits.
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let loop = Unmanaged<CurlEventLoop>.fromOpaque(context!).takeRetainedValue()
                loop.run()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<CurlEventLoop>.fromOpaque(context).release()
            ccurl_multi_cleanup(multi)
            lazy_library_work_end(work)
            throw .transportFailure("cannot start the HTTP transport thread (error \(started))")
        }
        pthread_detach(thread)
    }

    /// Hands a transfer to the loop; it is attached on the loop thread.
    /// - Parameter transfer: the transfer, its continuation already set.
    func submit(_ transfer: CurlTransfer) {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.added.append(transfer)
            ccurl_multi_wakeup(multi)
            return true
        }
        if !accepted { transfer.complete(.failure(.cancelled)) }
    }

    /// Asks the loop to end a transfer now.
    /// - Parameter transfer: the transfer; ignored when it already ended.
    func cancel(_ transfer: CurlTransfer) {
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            inbox.cancelled.append(transfer)
            ccurl_multi_wakeup(multi)
        }
    }

    /// Stops the thread: transfers still attached end as cancelled, idle
    /// connections are closed, the multi handle is cleaned up.
    func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return }
            inbox.stopping = true
            ccurl_multi_wakeup(multi)
        }
    }

    // MARK: - The loop thread

    private func run() {
        var running: Int32 = 0
        while true {
            let (added, cancelled, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.added = []
                    inbox.cancelled = []
                }
                return (inbox.added, inbox.cancelled, inbox.stopping)
            }
            for transfer in added { attach(transfer) }
            for transfer in cancelled { detach(transfer, result: .failure(.cancelled)) }
            if stopping { break }

            _ = ccurl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = ccurl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active[easy]
                else { continue }
                // Read everything from the message before the handle is removed (which frees it).
                let code = ccurl_message_result(message)
                detach(transfer, code: code)
            }
            // Waits for socket activity, curl's next timer, or a wakeup.
            _ = ccurl_multi_poll(multi, nil, 0, 1000, nil)
        }
        for transfer in Array(active.values) { detach(transfer, result: .failure(.cancelled)) }
        let late = inbox.withLock { inbox in
            inbox.closed = true
            defer { inbox.added = [] }
            return inbox.added
        }
        for transfer in late { transfer.complete(.failure(.cancelled)) }
        ccurl_multi_cleanup(multi)
        lazy_library_work_end(work)
    }

    private func attach(_ transfer: CurlTransfer) {
        guard !transfer.isCancelled else {
            transfer.complete(.failure(.cancelled))
            return
        }
        let easy: UnsafeMutableRawPointer
        do {
            easy = try transfer.prepare()
        } catch {
            transfer.complete(.failure(error))
            return
        }
        guard ccurl_multi_add_handle(multi, easy) == CURLM_OK else {
            transfer.finish(code: CURLE_FAILED_INIT)
            return
        }
        active[easy] = transfer
    }

    private func detach(_ transfer: CurlTransfer, code: CURLcode) {
        guard let easy = transfer.easyHandle, active.removeValue(forKey: easy) != nil else { return }
        ccurl_multi_remove_handle(multi, easy)
        transfer.finish(code: code)
    }

    private func detach(_ transfer: CurlTransfer, result: Result<HTTPClientResponse, HTTPClientError>) {
        guard let easy = transfer.easyHandle, active.removeValue(forKey: easy) != nil else { return }
        // Removing a handle mid-transfer aborts it and closes its connection.
        ccurl_multi_remove_handle(multi, easy)
        transfer.finish(overriding: result)
    }
}
