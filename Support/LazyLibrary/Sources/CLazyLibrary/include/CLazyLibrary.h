// A shared library opened on first use (dlopen) and its functions looked
// up once each (dlsym), for the C loaders that define a library's functions
// under their own names so that nothing links the library itself
// (docs/adr/0019-libraries-loaded-on-first-use.md).
//
// Two ways to reach a library: `lazy_library_load` for a caller that can
// report a failure (a photo that cannot be converted because libheif is
// missing gets a clear error, and nothing is lost), and
// `lazy_library_symbol` for a wrapper that cannot: it ends the program with
// the loader's message and exit status 127, as a missing library did at
// start when the program linked it. Safe from any thread.
#ifndef CLAZY_LIBRARY_H
#define CLAZY_LIBRARY_H

#include <stddef.h>

/// One library: its file name (`libheif.so.1`), the name a message uses
/// (`libheif`), the Debian package that installs it (`libheif1`, named in
/// every message so that a person knows what to install), and what opening
/// it left. Define each as a static variable
/// with ``LAZY_LIBRARY_INIT``; only this package's functions touch the rest.
typedef struct lazy_library {
    const char *file_name;
    const char *label;
    const char *package;
    int state;      // 0 not tried, 1 open, 2 failed (atomic)
    void *handle;   // set before `state` becomes 1
    char error[256];  // dlerror() of the failed open, set before `state` becomes 2
} lazy_library;

/// A `lazy_library` not opened yet.
#define LAZY_LIBRARY_INIT(file_name, label, package) {(file_name), (label), (package), 0, NULL, {0}}

/// Opens the library unless it is open (the first call tries; later calls
/// return what it found). Returns 0 when it is open; -1 when it cannot be
/// opened, with "<label> could not be loaded: <dlerror> (install the Debian
/// package <package>)" written into
/// `message` (`capacity` bytes, always NUL-terminated when capacity > 0).
int lazy_library_load(lazy_library *library, char *message, size_t capacity);

/// The library's function `name`, opening the library first if needed, and
/// kept in `*cache` for the next call. Does not return when the library
/// cannot be opened or lacks the function: it writes why on standard error
/// and ends the process with status 127.
void *lazy_library_symbol(lazy_library *library, const char *name, void **cache);

/// Defines the wrapper's call: the function `name` of `library` through a
/// pointer of the type the library's header declares for `name`, so the
/// compiler checks each wrapper's definition against that declaration.
/// Needs a `static void *pointer_<name>;` beside the wrapper.
#define LAZY_FUNCTION(library, name) ((__typeof__(&name))lazy_library_symbol(&(library), #name, &pointer_##name))

// MARK: - Work on other threads, and the exit
//
// `exit` tears the process down while its other threads still run: the
// handlers `atexit` registered (OpenSSL's cleanup frees its locks and
// tables) and the libraries' destructors. A thread still inside a library
// then crashes the process on its way out (libcurl's start-up on a
// background thread, still initializing OpenSSL, did about once in 30
// runs). So work that calls into C libraries on a thread of its own is
// registered here (`lazy_library_work_begin`, `lazy_library_work_end`),
// and a program ends through `lazy_library_exit`, which asks that work to
// stop and waits for it before anything is torn down. From then on no work
// begins and no library is opened.

/// Says that work calling into C libraries begins on a thread of its own
/// (a library loaded ahead of its first use, a thread that serves a
/// library's handles); the process does not exit before it ends.
/// - Parameters:
///   - stop: asks the work to end soon, called once by the exit with
///     `context` (under this package's lock: it must neither begin nor end
///     work itself, and must not wait for the work); NULL for work that
///     ends by itself shortly.
///   - context: for `stop`; it stays valid until the work ends.
/// - Returns: a token for `lazy_library_work_end`, greater than 0; 0 when
///   the process is exiting (or no memory is left): the work must not begin.
long lazy_library_work_begin(void (*stop)(void *context), void *context);

/// The work of `token` is over: its thread calls into no library any more
/// (it may still return and release its memory).
void lazy_library_work_end(long token);

/// Prepares the end of the process: from now on no work begins and no
/// library is opened (a thread that tries waits until the process is gone);
/// every work in progress is asked to stop and waited for, at most
/// `timeout_ms` milliseconds. Safe to call more than once, from any thread
/// that does no registered work itself.
/// - Returns: 1 when no work runs any more and no library is being opened;
///   0 when some still did at the deadline.
int lazy_library_prepare_exit(long timeout_ms);

/// How a program ends: `lazy_library_prepare_exit` (at most 10 seconds),
/// then `exit(status)`. When work still runs at the deadline, the process
/// ends without tearing anything down under it: standard output and error
/// are flushed, then `_exit(status)`.
_Noreturn void lazy_library_exit(int status);

/// How a program ends when it is interrupted while its work still runs
/// on other threads (Ctrl-C in the middle of a share, whose state is
/// already kept on disk): no work begins and no library is opened any
/// more, the work that ends by itself (registered without a stop
/// function: a library's start-up) is waited for (at most 10 seconds),
/// standard output and error are flushed, and the process ends with
/// `_exit(status)`, as a signal would end it. Work with a stop function
/// (an event loop) is not stopped, since the interrupted flow would act
/// on its cancelled requests; nothing is torn down under any thread.
_Noreturn void lazy_library_exit_now(int status);

#endif
