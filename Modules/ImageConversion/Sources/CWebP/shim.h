// libwebp (the WebP decoder) for Swift: only ImageConversion uses this module.
#include <webp/decode.h>
