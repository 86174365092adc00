// Headers of libcurl (libcurl4-openssl-dev) that HTTPTransport uses. Nothing
// links libcurl: CCurlShim loads it on first use.
#pragma once

// The install hint where a missing header would otherwise be the only message. This target names no
// pkgConfig: SwiftPM would add the library's link flags with its include path, and the program would
// load the library at start (docs/adr/0019, docs/adr/0030).
#if !__has_include(<curl/curl.h>)
#error "<curl/curl.h> not found: install the Debian package libcurl4-openssl-dev to build (the program needs libcurl4 to run)"
#endif
#include <curl/curl.h>
