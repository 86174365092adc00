// libwebp (the WebP decoder) for Swift: only ImageConversion uses this module.

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<webp/decode.h>)
#error "<webp/decode.h> not found: install the Debian package libwebp-dev to build (the program needs libwebp7 to run)"
#endif

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
