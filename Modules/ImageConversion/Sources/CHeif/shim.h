// libheif (HEIF, HEIC and AVIF decoding) for Swift: only ImageConversion,
// its C helper target and its tests use this module.

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<libheif/heif.h>)
#error "<libheif/heif.h> not found: install the Debian package libheif-dev to build (the program needs libheif1 to run)"
#endif
#include <libheif/heif.h>

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
