// libjpeg-turbo (the JPEG encoder) for ImageConversion's C helper target.
// jpeglib.h needs FILE and size_t declared before it is included.

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<jpeglib.h>)
#error "<jpeglib.h> not found: install the Debian package libjpeg62-turbo-dev to build (the program needs libjpeg62-turbo to run)"
#endif
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
