// libtiff (the TIFF decoder) for ImageConversion's C helper target and its tests.

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<tiffio.h>)
#error "<tiffio.h> not found: install the Debian package libtiff-dev to build (the program needs libtiff6 to run)"
#endif
#include <tiffio.h>

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
