// giflib (the GIF decoder, for GIF pictures the server takes only as JPEG)
// for Swift: only ImageConversion uses this module.

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<gif_lib.h>)
#error "<gif_lib.h> not found: install the Debian package libgif-dev to build (the program needs libgif7 to run)"
#endif
#include <gif_lib.h>

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
