// See CMicroHTTPDShim.h: the variadic calls of libmicrohttpd, made from C.
#include "CMicroHTTPDShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CMHDShimState {
    CMHDShimLogHandler log_handler;
    void *log_context;
    CMHDShimURILogHandler uri_log_handler;
    void *uri_log_context;
    CMHDShimMalformedLengthHandler malformed_length_handler;
    void *malformed_length_context;
} CMHDShimState;

// With a thread per connection, every callback of a connection runs on its
// own thread: the request the URI callback began last on this thread is the
// one a message logged on this thread is about. libmicrohttpd's logger gets
// no connection, so this is how a message finds it.
static _Thread_local struct MHD_Connection *cmhd_current_connection;
static _Thread_local void *cmhd_current_request;

static void *cmhd_shim_uri_log(void *cls, const char *uri, struct MHD_Connection *connection) {
    CMHDShimState *state = cls;
    void *request = state->uri_log_handler != NULL ? state->uri_log_handler(state->uri_log_context, uri, connection)
                                                   : NULL;
    cmhd_current_connection = connection;
    cmhd_current_request = request;
    return request;
}

// MHD_OPTION_EXTERNAL_LOGGER hands over a format and a va_list; Swift gets
// the formatted text. Messages longer than the buffer are cut, which is
// fine for diagnostics.
//
// libmicrohttpd 0.9.75 logs one of two messages about the Content-Length
// just before it queues its own 400 or 413, and that answer goes out with
// its status line and header fields twice (the state it sets is
// overwritten by its caller, which builds the head again). The message is
// the only callback on that path, so it is where the engine answers first.
static void cmhd_shim_log(void *cls, const char *format, va_list arguments) {
    CMHDShimState *state = cls;
    if (state->malformed_length_handler != NULL && cmhd_current_connection != NULL &&
        strstr(format, "Content-Length' header") != NULL) {
        unsigned int status = strstr(format, "Too large") != NULL ? 413 : 400;
        state->malformed_length_handler(
            state->malformed_length_context, cmhd_current_connection, cmhd_current_request, status);
    }
    if (state->log_handler == NULL) return;
    char text[1024];
    vsnprintf(text, sizeof text, format, arguments);
    state->log_handler(state->log_context, text);
}

struct MHD_Daemon *cmhd_shim_start_daemon(const CMHDShimOptions *o, void **state_out) {
    // A thread per connection lets handlers block (SQLite, long polls)
    // without holding up other connections; MHD_USE_AUTO picks poll() over
    // select() so descriptors above FD_SETSIZE work; MHD_USE_ITC is needed
    // for MHD_quiesce_daemon.
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_AUTO | MHD_USE_ITC;
    if (o->ipv6) flags |= MHD_USE_IPv6;
    if (o->tls_certificate_pem != NULL && o->tls_key_pem != NULL) flags |= MHD_USE_TLS;

    struct MHD_OptionItem items[16];
    int n = 0;
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)o->address};
    if (o->connection_limit > 0)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)o->connection_limit, NULL};
    if (o->per_ip_connection_limit > 0)
        items[n++] =
            (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)o->per_ip_connection_limit, NULL};
    if (o->connection_timeout_seconds > 0)
        items[n++] =
            (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)o->connection_timeout_seconds, NULL};
    if (o->connection_memory_limit > 0)
        items[n++] =
            (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)o->connection_memory_limit, NULL};
    if (o->thread_stack_size > 0)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_STACK_SIZE, (intptr_t)o->thread_stack_size, NULL};
    if (o->listen_backlog > 0)
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)o->listen_backlog, NULL};
    if (flags & MHD_USE_TLS) {
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)o->tls_certificate_pem};
        items[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)o->tls_key_pem};
    }
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};

    // The shim's own URI and log callbacks forward to the handlers; the log
    // callback is always installed (see cmhd_shim_log).
    CMHDShimState *state = malloc(sizeof *state);
    if (state == NULL) return NULL;
    *state = (CMHDShimState){
        o->log_handler, o->log_context, o->uri_log_handler, o->uri_log_context, o->malformed_length_handler,
        o->malformed_length_context};
    flags |= MHD_USE_ERROR_LOG;
    *state_out = state;

    // The callbacks with two arguments each cannot go through
    // MHD_OptionItem (it has one pointer), so they are passed directly.
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, o->access_handler, o->access_context,
        MHD_OPTION_NOTIFY_COMPLETED, o->completed_handler, o->completed_context,
        MHD_OPTION_URI_LOG_CALLBACK, cmhd_shim_uri_log, state,
        MHD_OPTION_NOTIFY_CONNECTION, o->connection_handler, o->connection_context,
        MHD_OPTION_EXTERNAL_LOGGER, cmhd_shim_log, state,
        MHD_OPTION_ARRAY, items,
        MHD_OPTION_END);
    if (daemon == NULL) {
        free(state);
        *state_out = NULL;
    }
    return daemon;
}

void cmhd_shim_release_state(void *state) { free(state); }

uint16_t cmhd_shim_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

unsigned int cmhd_shim_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info != NULL ? info->num_connections : 0;
}

const struct sockaddr *cmhd_shim_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info != NULL ? info->client_addr : NULL;
}

int cmhd_shim_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

size_t cmhd_shim_request_header_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info != NULL ? info->header_size : 0;
}
