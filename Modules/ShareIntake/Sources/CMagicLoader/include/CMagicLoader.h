// libmagic, loaded on first use (see loader.c): only sniffing a file's bytes
// maps it.
#ifndef CMAGIC_LOADER_H
#define CMAGIC_LOADER_H

#include <stddef.h>

/// Opens libmagic unless it is open. Returns 0, or -1 with "libmagic could
/// not be loaded: <reason>" in `message` (`capacity` bytes, NUL-terminated),
/// for the sniff to fail with instead of the program ending at the first
/// call.
int sk_magic_library_load(char *message, size_t capacity);

#endif
