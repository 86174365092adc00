// libmicrohttpd for Swift: only MicroHTTPServer (and its C helper target
// CMicroHTTPDShim) use this module. microhttpd.h needs the socket and
// stdarg types declared before it is included.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
