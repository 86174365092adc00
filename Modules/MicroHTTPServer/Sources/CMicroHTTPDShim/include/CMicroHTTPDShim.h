// Non-variadic wrappers around the variadic parts of libmicrohttpd, which
// Swift cannot call: starting a daemon with its options (and the URI and
// log callbacks, which take a va_list or must know the connection a message
// is about), and the daemon and connection information queries. Only
// MicroHTTPServer imports this module.
#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Called with each message libmicrohttpd logs, already formatted.
typedef void (*CMHDShimLogHandler)(void *context, const char *message);

/// Called with the request's full URI, as sent, before anything else of the
/// request is parsed; its result becomes the request's `*con_cls`.
typedef void *(*CMHDShimURILogHandler)(void *context, const char *uri, struct MHD_Connection *connection);

/// Called when libmicrohttpd has found a `Content-Length` it cannot use (not
/// a decimal number: `status` 400; too large for 64 bits: 413), on the
/// connection's thread, before it queues its own answer, with the
/// connection and the `*con_cls` of its request. libmicrohttpd 0.9.75 sends
/// that answer's status line and header fields twice; the handler answers
/// (or closes) the connection itself first.
typedef void (*CMHDShimMalformedLengthHandler)(
    void *context, struct MHD_Connection *connection, void *request, unsigned int status);

/// Everything `cmhd_shim_start_daemon` passes to `MHD_start_daemon`.
/// A zero number leaves libmicrohttpd's default in place.
typedef struct CMHDShimOptions {
    /// The address to bind (a `sockaddr_in` or `sockaddr_in6`).
    const struct sockaddr *address;
    /// True when `address` is an IPv6 address.
    bool ipv6;
    /// MHD_OPTION_CONNECTION_LIMIT.
    unsigned int connection_limit;
    /// MHD_OPTION_PER_IP_CONNECTION_LIMIT (0: no limit).
    unsigned int per_ip_connection_limit;
    /// MHD_OPTION_CONNECTION_TIMEOUT, seconds of inactivity.
    unsigned int connection_timeout_seconds;
    /// MHD_OPTION_CONNECTION_MEMORY_LIMIT, bytes per connection (headers and read buffer).
    size_t connection_memory_limit;
    /// MHD_OPTION_THREAD_STACK_SIZE, bytes (0: the system default).
    size_t thread_stack_size;
    /// MHD_OPTION_LISTEN_BACKLOG_SIZE (0: the default).
    unsigned int listen_backlog;
    /// PEM certificate chain and key for TLS; both NULL for plain HTTP.
    const char *tls_certificate_pem;
    const char *tls_key_pem;
    /// The access handler and its context.
    MHD_AccessHandlerCallback access_handler;
    void *access_context;
    /// MHD_OPTION_NOTIFY_COMPLETED.
    MHD_RequestCompletedCallback completed_handler;
    void *completed_context;
    /// MHD_OPTION_URI_LOG_CALLBACK.
    CMHDShimURILogHandler uri_log_handler;
    void *uri_log_context;
    /// MHD_OPTION_NOTIFY_CONNECTION (NULL: not called).
    MHD_NotifyConnectionCallback connection_handler;
    void *connection_context;
    /// MHD_OPTION_EXTERNAL_LOGGER, already formatted (NULL: messages are dropped).
    CMHDShimLogHandler log_handler;
    void *log_context;
    /// See CMHDShimMalformedLengthHandler (NULL: not called).
    CMHDShimMalformedLengthHandler malformed_length_handler;
    void *malformed_length_context;
} CMHDShimOptions;

/// Starts a daemon with a thread per connection (and an internal thread that
/// accepts), inter-thread communication for `MHD_quiesce_daemon`, and the
/// given options. Returns NULL when libmicrohttpd refuses (its reason goes
/// to the log handler). `*state` receives the shim's state (the handlers
/// the shim's own callbacks forward to), to release with
/// `cmhd_shim_release_state` after `MHD_stop_daemon`.
struct MHD_Daemon *cmhd_shim_start_daemon(const CMHDShimOptions *options, void **state);

/// Frees the state made by `cmhd_shim_start_daemon` (NULL is fine).
void cmhd_shim_release_state(void *state);

/// The port the daemon is bound to (0 when unknown).
uint16_t cmhd_shim_bound_port(struct MHD_Daemon *daemon);

/// The number of open connections of the daemon.
unsigned int cmhd_shim_current_connections(struct MHD_Daemon *daemon);

/// The client's address of a connection (NULL when unknown).
const struct sockaddr *cmhd_shim_client_address(struct MHD_Connection *connection);

/// The socket of a connection (-1 when unknown).
int cmhd_shim_connection_fd(struct MHD_Connection *connection);

/// The size in bytes of the request line and header fields of the request
/// being processed, once they are complete (0 when not known yet).
size_t cmhd_shim_request_header_size(struct MHD_Connection *connection);

#endif
