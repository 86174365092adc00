// The photo codecs, loaded on first use (see loader.c): only a photo
// conversion maps libheif, libwebp, libtiff, libpng, giflib and libjpeg-turbo.
#ifndef CIMAGECODEC_LOADER_H
#define CIMAGECODEC_LOADER_H

#include <stddef.h>

/// One of the codec libraries.
typedef enum sk_codec_library {
    sk_codec_library_heif = 0,  // libheif.so.1 (HEIF, HEIC, AVIF)
    sk_codec_library_webp = 1,  // libwebp.so.7
    sk_codec_library_tiff = 2,  // libtiff.so.6
    sk_codec_library_jpeg = 3,  // libjpeg.so.62 (the encoder)
    sk_codec_library_png = 4,   // libpng16.so.16
    sk_codec_library_gif = 5,   // libgif.so.7 (giflib)
} sk_codec_library;

/// Opens `library` unless it is open. Returns 0, or -1 with
/// "<library> could not be loaded: <reason>" in `message` (`capacity`
/// bytes, NUL-terminated), for a conversion to fail with instead of the
/// program ending at the library's first call.
int sk_codec_library_load(sk_codec_library library, char *message, size_t capacity);

#endif
