import CShareKitCurl
import CShareKitCurlShim
import Glibc
import ShareKitHTTPInterface
import ShareKitHTTPTypes
import Synchronization

/// One request on its way: the easy handle and everything its libcurl
/// callbacks use (body source, response collector, progress), and the
/// continuation of the task that waits for it.
///
/// Made on the sender's task; from ``prepare()`` on, used only by the event
/// loop's thread, except for the cancellation flag and the continuation,
/// which are guarded.
final class CurlTransfer: @unchecked Sendable {
    typealias Outcome = Result<HTTPClientResponse, HTTPClientError>

    private let request: HTTPClientRequest
    private let options: HTTPRequestOptions
    private let configuration: CurlHTTPClient.Configuration
    private let cancelledFlag = Atomic<Bool>(false)
    private let continuation = Mutex<CheckedContinuation<Outcome, Never>?>(nil)
    /// Set once the outcome is delivered, so a late cancellation or a
    /// second completion does nothing.
    private let completed = Atomic<Bool>(false)

    // Loop-thread state.
    private(set) var easyHandle: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body: RequestBodySource?
    private var response: ResponseCollector
    private var progress: ProgressReporter
    private var startedAt = ContinuousClock.now

    /// Makes a transfer; nothing is opened yet.
    /// - Parameters:
    ///   - request: the request, already validated.
    ///   - options: its options.
    ///   - configuration: the client's configuration.
    init(request: HTTPClientRequest, options: HTTPRequestOptions, configuration: CurlHTTPClient.Configuration) {
        self.request = request
        self.options = options
        self.configuration = configuration
        let size = Int(ccurl_error_size())
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
        response = ResponseCollector(limit: max(0, options.maxResponseBodyBytes))
        progress = ProgressReporter(callback: options.progress, total: request.body.length)
    }

    deinit {
        releaseHandle()
        errorBuffer.deallocate()
    }

    // MARK: - Any thread

    /// Whether the transfer was asked to stop.
    var isCancelled: Bool { cancelledFlag.load(ordering: .acquiring) }

    /// Stores the continuation that ``complete(_:)`` resumes.
    /// - Parameter continuation: the waiting task's continuation.
    func setContinuation(_ continuation: CheckedContinuation<Outcome, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    /// Marks the transfer cancelled and wakes the loop to end it.
    /// - Parameter loop: the loop the transfer runs on.
    func cancel(on loop: CurlEventLoop) {
        guard !cancelledFlag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !completed.load(ordering: .acquiring) { loop.cancel(self) }
    }

    /// Delivers the outcome to the waiting task, once.
    /// - Parameter outcome: the response or the error.
    func complete(_ outcome: Outcome) {
        guard !completed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let waiting = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(returning: outcome)
    }

    // MARK: - Loop thread

    /// Opens the body and makes the easy handle with every option set.
    /// - Returns: the easy handle, ready to add to the multi handle.
    /// - Throws: ``ShareKitHTTPInterface/HTTPClientError`` for an unusable body file or an
    ///   option libcurl refuses.
    func prepare() throws(HTTPClientError) -> UnsafeMutableRawPointer {
        startedAt = .now
        body = try RequestBodySource.open(request.body)
        guard let easy = ccurl_easy_init() else { throw .transportFailure("libcurl could not make an easy handle") }
        easyHandle = easy
        let context = Unmanaged.passUnretained(self).toOpaque()

        try set(CURLOPT_URL, string: request.url)
        try set(CURLOPT_PROTOCOLS_STR, string: "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https")
        // Signals are not for libraries: with threads, SIGALRM-based DNS
        // timeouts crash; libcurl's threaded resolver does not need them.
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        try set(CURLOPT_PIPEWAIT, 1)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_USERAGENT, string: configuration.userAgent)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        if let caFile = configuration.caFile {
            // Only this CA: a private server's certificate must not pass
            // because some public CA also vouches for the name.
            try set(CURLOPT_CAINFO, string: caFile)
            try set(CURLOPT_CAPATH, pointer: nil)
        }

        let timeouts = options.timeouts
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(timeouts.connect))
        if timeouts.lowSpeedLimit > 0, timeouts.lowSpeedTime > .zero {
            try set(CURLOPT_LOW_SPEED_LIMIT, timeouts.lowSpeedLimit)
            try set(CURLOPT_LOW_SPEED_TIME, Self.wholeSeconds(timeouts.lowSpeedTime))
        }
        if let total = timeouts.total { try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(total)) }
        if options.redirectLimit > 0 {
            try set(CURLOPT_FOLLOWLOCATION, 1)
            try set(CURLOPT_MAXREDIRS, options.redirectLimit)
        }

        try check(ccurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, Self.headerCallback))
        try set(CURLOPT_HEADERDATA, pointer: context)
        try check(ccurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, Self.writeCallback))
        try set(CURLOPT_WRITEDATA, pointer: context)
        // The transfer-info callback serves cancellation as well as progress.
        try set(CURLOPT_NOPROGRESS, 0)
        try check(ccurl_easy_setopt_xferinfo_function(easy, Self.transferInfoCallback))
        try set(CURLOPT_XFERINFODATA, pointer: context)

        try setMethodAndBody(context: context)
        try setHeaders()
        return easy
    }

    /// The transfer ended with `code`: collect the response or the error,
    /// release the handle and deliver the outcome.
    /// - Parameter code: libcurl's result.
    func finish(code: CURLcode) {
        let outcome: Outcome
        if code == CURLE_OK, response.sawFinalStatus, let easy = easyHandle {
            let status = info(easy, CURLINFO_RESPONSE_CODE)
            let sent = UInt64(max(0, infoOffset(easy, CURLINFO_SIZE_UPLOAD_T)))
            let metrics = HTTPTransferMetrics(
                httpVersion: Self.versionName(info(easy, CURLINFO_HTTP_VERSION)),
                reusedConnection: info(easy, CURLINFO_NUM_CONNECTS) == 0,
                bodyBytesSent: sent, duration: .now - startedAt)
            progress.completed(sent: sent)
            outcome = .success(
                HTTPClientResponse(
                    status: status, headers: HTTPFields(response.fields), body: response.body, metrics: metrics))
        } else if code == CURLE_OK {
            outcome = .failure(.protocolError("the transfer ended without a response"))
        } else {
            outcome = .failure(failure(for: code))
        }
        releaseHandle()
        complete(outcome)
    }

    /// The loop ended the transfer itself (cancellation, shutdown).
    /// - Parameter outcome: the outcome to deliver.
    func finish(overriding outcome: Outcome) {
        releaseHandle()
        complete(outcome)
    }

    private func failure(for code: CURLcode) -> HTTPClientError {
        var connected = false
        var pastTotal = false
        if let easy = easyHandle {
            let https = request.url.lowercased().hasPrefix("https:")
            let connectTime = infoOffset(easy, https ? CURLINFO_APPCONNECT_TIME_T : CURLINFO_CONNECT_TIME_T)
            connected =
                connectTime > 0 || (info(easy, CURLINFO_NUM_CONNECTS) == 0 && info(easy, CURLINFO_HTTP_VERSION) != 0)
        }
        if let total = options.timeouts.total { pastTotal = ContinuousClock.now - startedAt >= total }
        let context = CurlFailure.Context(
            message: String(cString: errorBuffer), cancelled: isCancelled, bodyFailure: body?.failure,
            responseTooLarge: response.tooLarge, responseLimit: response.limit, redirectLimit: options.redirectLimit,
            connected: connected, pastTotalLimit: pastTotal)
        return CurlFailure.error(for: code, context: context)
    }

    private func releaseHandle() {
        if let easy = easyHandle {
            ccurl_easy_cleanup(easy)
            easyHandle = nil
        }
        if let list = headerList {
            ccurl_slist_free_all(list)
            headerList = nil
        }
        body?.close()
    }

    // MARK: - Options

    /// Bodies of at least this many bytes are sent through a larger buffer.
    static let largeBodyBytes: UInt64 = 1 << 20
    /// The upload buffer of a large body: as much per `pread` and `send` as
    /// fits a loopback socket's buffer at once, allocated by libcurl for
    /// that transfer only.
    static let largeBodyBufferBytes = 512 * 1024

    private func setMethodAndBody(context: UnsafeMutableRawPointer) throws(HTTPClientError) {
        let method = request.method
        let length = body?.length ?? 0
        if body != nil {
            try check(ccurl_easy_setopt_read_function(easyHandle, Self.readCallback))
            try set(CURLOPT_READDATA, pointer: context)
            try check(ccurl_easy_setopt_seek_function(easyHandle, Self.seekCallback))
            try set(CURLOPT_SEEKDATA, pointer: context)
            if length >= Self.largeBodyBytes {
                // libcurl's 64 KiB upload buffer means one read callback, one
                // `send` and one wake-up of the receiver per 64 KiB; on a busy
                // machine each wake-up waits for a core, and a large body then
                // goes at the pace of the scheduler, not of the copy.
                try set(CURLOPT_UPLOAD_BUFFERSIZE, Self.largeBodyBufferBytes)
            }
        }
        switch method {
        case .get where body == nil:
            try set(CURLOPT_HTTPGET, 1)
        case .head where body == nil:
            try set(CURLOPT_NOBODY, 1)
        case .post:
            // POST reads the body through the read callback when no
            // POSTFIELDS are set; the size makes it a Content-Length upload.
            try set(CURLOPT_POST, 1)
            try check(ccurl_easy_setopt_off_t(easyHandle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(length)))
            if body == nil { try set(CURLOPT_POSTFIELDS, string: "") }
        default:
            if body != nil {
                try set(CURLOPT_UPLOAD, 1)
                try check(ccurl_easy_setopt_off_t(easyHandle, CURLOPT_INFILESIZE_LARGE, curl_off_t(length)))
            }
            if method != .put || body == nil {
                try set(CURLOPT_CUSTOMREQUEST, string: method.rawValue)
            }
        }
    }

    private func setHeaders() throws(HTTPClientError) {
        var lines: [String] = []
        var fields = request.headers
        // libcurl computes these from the body; a caller's copy could only disagree.
        fields.remove("Content-Length")
        fields.remove("Transfer-Encoding")
        for field in fields {
            // "Name:" would remove a header libcurl adds; "Name;" sends it empty.
            lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        let length = body?.length ?? 0
        if request.method == .post, !fields.contains("Content-Type") {
            // libcurl would label a POST application/x-www-form-urlencoded.
            lines.append("Content-Type:")
        }
        if body != nil, !fields.contains("Expect") {
            // `Expect: 100-continue` lets a server refuse a large body (401,
            // 413, a DPoP nonce) before it is sent; for a small one the
            // extra round trip costs more than sending it.
            lines.append(length >= configuration.expectContinueThreshold ? "Expect: 100-continue" : "Expect:")
        }
        for line in lines {
            guard let appended = ccurl_slist_append(headerList, line) else {
                throw .transportFailure("out of memory building the header list")
            }
            headerList = appended
        }
        if let headerList { try set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList)) }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPClientError) {
        try check(ccurl_easy_setopt_long(easyHandle, option, value))
    }

    private func set(_ option: CURLoption, string: String) throws(HTTPClientError) {
        // libcurl copies string options (since 7.17), so the buffer may go.
        let code = string.withCString {
            ccurl_easy_setopt_pointer(easyHandle, option, UnsafeMutableRawPointer(mutating: $0))
        }
        try check(code)
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPClientError) {
        try check(ccurl_easy_setopt_pointer(easyHandle, option, pointer))
    }

    private func check(_ code: CURLcode) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            throw .transportFailure("libcurl refused an option: \(String(cString: ccurl_easy_strerror(code)))")
        }
    }

    private func info(_ easy: UnsafeMutableRawPointer, _ item: CURLINFO) -> Int {
        var value = 0
        _ = ccurl_easy_getinfo_long(easy, item, &value)
        return value
    }

    private func infoOffset(_ easy: UnsafeMutableRawPointer, _ item: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        _ = ccurl_easy_getinfo_off_t(easy, item, &value)
        return Int64(value)
    }

    private static func versionName(_ version: Int) -> String {
        switch version {
        case CURL_HTTP_VERSION_1_0: return "HTTP/1.0"
        case CURL_HTTP_VERSION_1_1: return "HTTP/1.1"
        case CURL_HTTP_VERSION_2_0: return "HTTP/2"
        case CURL_HTTP_VERSION_3: return "HTTP/3"
        default: return ""
        }
    }

    /// A duration in milliseconds for libcurl, at least 1 (0 would mean "no limit").
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let millis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int(max(1, min(millis, Int64(Int32.max))))
    }

    /// A duration in whole seconds, rounded up, at least 1.
    static func wholeSeconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(max(1, seconds + (attoseconds > 0 ? 1 : 0)))
    }

    // MARK: - libcurl callbacks (loop thread)

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private static let readCallback: curl_read_callback = { buffer, size, count, context in
        let transfer = CurlTransfer.transfer(context)
        guard !transfer.isCancelled, let body = transfer.body, let buffer else { return ccurl_readfunc_abort() }
        guard let written = body.read(into: UnsafeMutableRawPointer(buffer), capacity: size * count) else {
            return ccurl_readfunc_abort()
        }
        return written
    }

    private static let seekCallback: curl_seek_callback = { context, offset, origin in
        let transfer = CurlTransfer.transfer(context)
        // libcurl only ever rewinds with SEEK_SET.
        guard origin == SEEK_SET, offset >= 0, let body = transfer.body else { return ccurl_seekfunc_cantseek() }
        return body.seek(to: UInt64(offset)) ? ccurl_seekfunc_ok() : ccurl_seekfunc_fail()
    }

    private static let headerCallback: curl_write_callback = { buffer, size, count, context in
        let transfer = CurlTransfer.transfer(context)
        let length = size * count
        transfer.response.headerLine(UnsafeRawBufferPointer(start: buffer, count: length))
        return length
    }

    private static let writeCallback: curl_write_callback = { buffer, size, count, context in
        let transfer = CurlTransfer.transfer(context)
        let length = size * count
        // A short count makes libcurl stop with CURLE_WRITE_ERROR.
        return transfer.response.bodyChunk(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    private static let transferInfoCallback: curl_xferinfo_callback = { context, _, _, _, uploaded in
        let transfer = CurlTransfer.transfer(context)
        if transfer.isCancelled { return 1 }
        transfer.progress.sent(UInt64(max(0, uploaded)))
        return 0
    }
}
