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
/// (`libheif`), and what opening it left. Define each as a static variable
/// with ``LAZY_LIBRARY_INIT``; only this package's functions touch the rest.
typedef struct lazy_library {
    const char *file_name;
    const char *label;
    int state;      // 0 not tried, 1 open, 2 failed (atomic)
    void *handle;   // set before `state` becomes 1
    char error[256];  // dlerror() of the failed open, set before `state` becomes 2
} lazy_library;

/// A `lazy_library` not opened yet.
#define LAZY_LIBRARY_INIT(file_name, label) {(file_name), (label), 0, NULL, {0}}

/// Opens the library unless it is open (the first call tries; later calls
/// return what it found). Returns 0 when it is open; -1 when it cannot be
/// opened, with "<label> could not be loaded: <dlerror>" written into
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

#endif
