// libheif (HEIF, HEIC and AVIF decoding) for Swift: only ImageConversion,
// its C helper target and its tests use this module.
#include <libheif/heif.h>
