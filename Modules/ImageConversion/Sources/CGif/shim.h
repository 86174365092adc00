// giflib (the GIF decoder, for GIF pictures the server takes only as JPEG)
// for Swift: only ImageConversion uses this module.
#include <gif_lib.h>
