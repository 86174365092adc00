// libpng (its simplified reading interface, for PNG photos the server takes
// only as JPEG) for Swift: only ImageConversion uses this module.
#include <png.h>

// The simplified interface's format and version, as constants Swift can
// import (the header spells them as macro expressions).
static const png_uint_32 sk_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 sk_png_image_version = PNG_IMAGE_VERSION;
