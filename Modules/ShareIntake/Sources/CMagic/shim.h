// Headers of libmagic (libmagic-dev) that ShareIntake uses to tell a
// content type from bytes.
#pragma once

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<magic.h>)
#error "<magic.h> not found: install the Debian package libmagic-dev to build (the program needs libmagic1 to run)"
#endif
#include <magic.h>

// The link names of the functions the loader wraps (see wrapped.h).
#include "wrapped.h"
