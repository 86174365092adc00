// libpng (its simplified reading interface, for PNG photos the server takes
// only as JPEG) for Swift: only ImageConversion uses this module.

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<png.h>)
#error "<png.h> not found: install the Debian package libpng-dev to build (the program needs libpng16-16 to run)"
#endif
#include <png.h>

// The simplified interface's format and version, as constants Swift can
// import (the header spells them as macro expressions).
static const png_uint_32 sk_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 sk_png_image_version = PNG_IMAGE_VERSION;

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
