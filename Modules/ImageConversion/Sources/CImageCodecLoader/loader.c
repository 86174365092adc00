// The photo codecs, loaded on first use: this file defines every function of
// libheif, libwebp, libtiff, libpng, giflib and libjpeg-turbo that ImageConversion and its C
// shim call, under its own name, as a wrapper that opens the library with
// dlopen on the first call and calls the library's function through a
// pointer of the type the header declares (the compiler checks each
// definition against that declaration). Nothing links the codecs: with
// libheif's decoders and encoders (libde265, x265, aom, dav1d) they were
// about 3 MiB of every `share` and `share-daemon`, and only a photo
// conversion needs them (docs/adr/0019-libraries-loaded-on-first-use.md).
// The converter calls `sk_codec_library_load` for the libraries of a format
// before decoding, so a missing library is the conversion's error; a
// wrapper called without it ends the program with status 127. A new call
// needs its wrapper here: without one the program does not link.
#include "CImageCodecLoader.h"

#include <CLazyLibrary.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <libheif/heif.h>
#include <tiffio.h>
#include "../CWebP/wrapped.h" // before any other include of webp/decode.h (see there)
#include <png.h>
#include <gif_lib.h>

// Link names `sharekit_<name>` for the wrappers below (docs/adr/0030).
#include "../CHeif/wrapped.h"
#include "../CTIFF/wrapped.h"
#include "../CJPEG/wrapped.h"
#include "../CPNG/wrapped.h"
#include "../CGif/wrapped.h"

static lazy_library heif = LAZY_LIBRARY_INIT("libheif.so.1", "libheif", "libheif1");
static lazy_library webp = LAZY_LIBRARY_INIT("libwebp.so.7", "libwebp", "libwebp7");
static lazy_library tiff = LAZY_LIBRARY_INIT("libtiff.so.6", "libtiff", "libtiff6");
static lazy_library jpeg = LAZY_LIBRARY_INIT("libjpeg.so.62", "libjpeg-turbo", "libjpeg62-turbo");
static lazy_library png = LAZY_LIBRARY_INIT("libpng16.so.16", "libpng", "libpng16-16");
static lazy_library gif = LAZY_LIBRARY_INIT("libgif.so.7", "giflib", "libgif7");

int sk_codec_library_load(sk_codec_library library, char *message, size_t capacity) {
    switch (library) {
    case sk_codec_library_heif: return lazy_library_load(&heif, message, capacity);
    case sk_codec_library_webp: return lazy_library_load(&webp, message, capacity);
    case sk_codec_library_tiff: return lazy_library_load(&tiff, message, capacity);
    case sk_codec_library_jpeg: return lazy_library_load(&jpeg, message, capacity);
    case sk_codec_library_png: return lazy_library_load(&png, message, capacity);
    case sk_codec_library_gif: return lazy_library_load(&gif, message, capacity);
    }
    if (capacity > 0) snprintf(message, capacity, "no such codec library (%d)", (int)library);
    return -1;
}

// MARK: - libheif

static void *pointer_heif_context_alloc;
struct heif_context *heif_context_alloc(void) {
    return LAZY_FUNCTION(heif, heif_context_alloc)();
}

static void *pointer_heif_context_free;
void heif_context_free(struct heif_context *a0) {
    LAZY_FUNCTION(heif, heif_context_free)(a0);
}

static void *pointer_heif_context_get_primary_image_handle;
struct heif_error heif_context_get_primary_image_handle(struct heif_context *ctx, struct heif_image_handle **a1) {
    return LAZY_FUNCTION(heif, heif_context_get_primary_image_handle)(ctx, a1);
}

static void *pointer_heif_context_read_from_reader;
struct heif_error heif_context_read_from_reader(struct heif_context *a0, const struct heif_reader *reader, void *userdata, const struct heif_reading_options *a3) {
    return LAZY_FUNCTION(heif, heif_context_read_from_reader)(a0, reader, userdata, a3);
}

static void *pointer_heif_context_set_maximum_image_size_limit;
void heif_context_set_maximum_image_size_limit(struct heif_context *ctx, int maximum_width) {
    LAZY_FUNCTION(heif, heif_context_set_maximum_image_size_limit)(ctx, maximum_width);
}

static void *pointer_heif_context_set_max_decoding_threads;
void heif_context_set_max_decoding_threads(struct heif_context *ctx, int max_threads) {
    LAZY_FUNCTION(heif, heif_context_set_max_decoding_threads)(ctx, max_threads);
}

static void *pointer_heif_decode_image;
struct heif_error heif_decode_image(const struct heif_image_handle *in_handle, struct heif_image **out_img, enum heif_colorspace colorspace, enum heif_chroma chroma, const struct heif_decoding_options *options) {
    return LAZY_FUNCTION(heif, heif_decode_image)(in_handle, out_img, colorspace, chroma, options);
}

static void *pointer_heif_decoding_options_alloc;
struct heif_decoding_options *heif_decoding_options_alloc(void) {
    return LAZY_FUNCTION(heif, heif_decoding_options_alloc)();
}

static void *pointer_heif_decoding_options_free;
void heif_decoding_options_free(struct heif_decoding_options *a0) {
    LAZY_FUNCTION(heif, heif_decoding_options_free)(a0);
}

static void *pointer_heif_image_get_bits_per_pixel_range;
int heif_image_get_bits_per_pixel_range(const struct heif_image *a0, enum heif_channel channel) {
    return LAZY_FUNCTION(heif, heif_image_get_bits_per_pixel_range)(a0, channel);
}

static void *pointer_heif_image_get_height;
int heif_image_get_height(const struct heif_image *a0, enum heif_channel channel) {
    return LAZY_FUNCTION(heif, heif_image_get_height)(a0, channel);
}

static void *pointer_heif_image_get_plane_readonly;
const uint8_t *heif_image_get_plane_readonly(const struct heif_image *a0, enum heif_channel channel, int *out_stride) {
    return LAZY_FUNCTION(heif, heif_image_get_plane_readonly)(a0, channel, out_stride);
}

static void *pointer_heif_image_get_width;
int heif_image_get_width(const struct heif_image *a0, enum heif_channel channel) {
    return LAZY_FUNCTION(heif, heif_image_get_width)(a0, channel);
}

static void *pointer_heif_image_handle_get_color_profile_type;
enum heif_color_profile_type heif_image_handle_get_color_profile_type(const struct heif_image_handle *handle) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_color_profile_type)(handle);
}

static void *pointer_heif_image_handle_get_height;
int heif_image_handle_get_height(const struct heif_image_handle *handle) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_height)(handle);
}

static void *pointer_heif_image_handle_get_ispe_height;
int heif_image_handle_get_ispe_height(const struct heif_image_handle *handle) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_ispe_height)(handle);
}

static void *pointer_heif_image_handle_get_ispe_width;
int heif_image_handle_get_ispe_width(const struct heif_image_handle *handle) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_ispe_width)(handle);
}

static void *pointer_heif_image_handle_get_list_of_metadata_block_IDs;
int heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle *handle, const char *type_filter, heif_item_id *ids, int count) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_list_of_metadata_block_IDs)(handle, type_filter, ids, count);
}

static void *pointer_heif_image_handle_get_metadata;
struct heif_error heif_image_handle_get_metadata(const struct heif_image_handle *handle, heif_item_id metadata_id, void *out_data) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_metadata)(handle, metadata_id, out_data);
}

static void *pointer_heif_image_handle_get_metadata_content_type;
const char *heif_image_handle_get_metadata_content_type(const struct heif_image_handle *handle, heif_item_id metadata_id) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_metadata_content_type)(handle, metadata_id);
}

static void *pointer_heif_image_handle_get_metadata_size;
size_t heif_image_handle_get_metadata_size(const struct heif_image_handle *handle, heif_item_id metadata_id) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_metadata_size)(handle, metadata_id);
}

static void *pointer_heif_image_handle_get_number_of_metadata_blocks;
int heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle *handle, const char *type_filter) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_number_of_metadata_blocks)(handle, type_filter);
}

static void *pointer_heif_image_handle_get_raw_color_profile;
struct heif_error heif_image_handle_get_raw_color_profile(const struct heif_image_handle *handle, void *out_data) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_raw_color_profile)(handle, out_data);
}

static void *pointer_heif_image_handle_get_raw_color_profile_size;
size_t heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *handle) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_raw_color_profile_size)(handle);
}

static void *pointer_heif_image_handle_get_width;
int heif_image_handle_get_width(const struct heif_image_handle *handle) {
    return LAZY_FUNCTION(heif, heif_image_handle_get_width)(handle);
}

static void *pointer_heif_image_handle_has_alpha_channel;
int heif_image_handle_has_alpha_channel(const struct heif_image_handle *a0) {
    return LAZY_FUNCTION(heif, heif_image_handle_has_alpha_channel)(a0);
}

static void *pointer_heif_image_handle_release;
void heif_image_handle_release(const struct heif_image_handle *a0) {
    LAZY_FUNCTION(heif, heif_image_handle_release)(a0);
}

static void *pointer_heif_image_is_premultiplied_alpha;
int heif_image_is_premultiplied_alpha(struct heif_image *image) {
    return LAZY_FUNCTION(heif, heif_image_is_premultiplied_alpha)(image);
}

static void *pointer_heif_image_release;
void heif_image_release(const struct heif_image *a0) {
    LAZY_FUNCTION(heif, heif_image_release)(a0);
}

// MARK: - libpng

static void *pointer_png_image_begin_read_from_memory;
int png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size) {
    return LAZY_FUNCTION(png, png_image_begin_read_from_memory)(image, memory, size);
}

static void *pointer_png_image_finish_read;
int png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer, png_int_32 row_stride, void *colormap) {
    return LAZY_FUNCTION(png, png_image_finish_read)(image, background, buffer, row_stride, colormap);
}

static void *pointer_png_image_free;
void png_image_free(png_imagep image) {
    LAZY_FUNCTION(png, png_image_free)(image);
}

// MARK: - giflib

static void *pointer_DGifOpen;
GifFileType *DGifOpen(void *userPtr, InputFunc readFunc, int *Error) {
    return LAZY_FUNCTION(gif, DGifOpen)(userPtr, readFunc, Error);
}

static void *pointer_DGifCloseFile;
int DGifCloseFile(GifFileType *GifFile, int *ErrorCode) {
    return LAZY_FUNCTION(gif, DGifCloseFile)(GifFile, ErrorCode);
}

static void *pointer_DGifGetRecordType;
int DGifGetRecordType(GifFileType *GifFile, GifRecordType *GifType) {
    return LAZY_FUNCTION(gif, DGifGetRecordType)(GifFile, GifType);
}

static void *pointer_DGifGetImageDesc;
int DGifGetImageDesc(GifFileType *GifFile) {
    return LAZY_FUNCTION(gif, DGifGetImageDesc)(GifFile);
}

static void *pointer_DGifGetLine;
int DGifGetLine(GifFileType *GifFile, GifPixelType *GifLine, int GifLineLen) {
    return LAZY_FUNCTION(gif, DGifGetLine)(GifFile, GifLine, GifLineLen);
}

static void *pointer_DGifGetExtension;
int DGifGetExtension(GifFileType *GifFile, int *GifExtCode, GifByteType **GifExtension) {
    return LAZY_FUNCTION(gif, DGifGetExtension)(GifFile, GifExtCode, GifExtension);
}

static void *pointer_DGifGetExtensionNext;
int DGifGetExtensionNext(GifFileType *GifFile, GifByteType **GifExtension) {
    return LAZY_FUNCTION(gif, DGifGetExtensionNext)(GifFile, GifExtension);
}

static void *pointer_GifErrorString;
const char *GifErrorString(int ErrorCode) {
    return LAZY_FUNCTION(gif, GifErrorString)(ErrorCode);
}

// MARK: - libwebp

static void *pointer_WebPIAppend;
VP8StatusCode WebPIAppend(WebPIDecoder *idec, const uint8_t *data, size_t data_size) {
    return LAZY_FUNCTION(webp, WebPIAppend)(idec, data, data_size);
}

static void *pointer_WebPIDecode;
WebPIDecoder *WebPIDecode(const uint8_t *data, size_t data_size, WebPDecoderConfig *config) {
    return LAZY_FUNCTION(webp, WebPIDecode)(data, data_size, config);
}

static void *pointer_WebPIDelete;
void WebPIDelete(WebPIDecoder *idec) {
    return LAZY_FUNCTION(webp, WebPIDelete)(idec);
}

static void *pointer_WebPInitDecoderConfigInternal;
int WebPInitDecoderConfigInternal(WebPDecoderConfig *a0, int a1) {
    return LAZY_FUNCTION(webp, WebPInitDecoderConfigInternal)(a0, a1);
}

// MARK: - libtiff

static void *pointer_TIFFClientOpenExt;
TIFF *TIFFClientOpenExt(const char *a0, const char *a1, thandle_t a2, TIFFReadWriteProc a3, TIFFReadWriteProc a4, TIFFSeekProc a5, TIFFCloseProc a6, TIFFSizeProc a7, TIFFMapFileProc a8, TIFFUnmapFileProc a9, TIFFOpenOptions *opts) {
    return LAZY_FUNCTION(tiff, TIFFClientOpenExt)(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, opts);
}

static void *pointer_TIFFClose;
void TIFFClose(TIFF *tif) {
    LAZY_FUNCTION(tiff, TIFFClose)(tif);
}

static void *pointer_TIFFIsTiled;
int TIFFIsTiled(TIFF *a0) {
    return LAZY_FUNCTION(tiff, TIFFIsTiled)(a0);
}

static void *pointer_TIFFOpenOptionsAlloc;
TIFFOpenOptions *TIFFOpenOptionsAlloc(void) {
    return LAZY_FUNCTION(tiff, TIFFOpenOptionsAlloc)();
}

static void *pointer_TIFFOpenOptionsFree;
void TIFFOpenOptionsFree(TIFFOpenOptions *a0) {
    LAZY_FUNCTION(tiff, TIFFOpenOptionsFree)(a0);
}

static void *pointer_TIFFOpenOptionsSetErrorHandlerExtR;
void TIFFOpenOptionsSetErrorHandlerExtR(TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *errorhandler_user_data) {
    LAZY_FUNCTION(tiff, TIFFOpenOptionsSetErrorHandlerExtR)(opts, handler, errorhandler_user_data);
}

static void *pointer_TIFFOpenOptionsSetMaxSingleMemAlloc;
void TIFFOpenOptionsSetMaxSingleMemAlloc(TIFFOpenOptions *opts, tmsize_t max_single_mem_alloc) {
    LAZY_FUNCTION(tiff, TIFFOpenOptionsSetMaxSingleMemAlloc)(opts, max_single_mem_alloc);
}

static void *pointer_TIFFOpenOptionsSetWarningHandlerExtR;
void TIFFOpenOptionsSetWarningHandlerExtR(TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *warnhandler_user_data) {
    LAZY_FUNCTION(tiff, TIFFOpenOptionsSetWarningHandlerExtR)(opts, handler, warnhandler_user_data);
}

static void *pointer_TIFFRGBAImageBegin;
int TIFFRGBAImageBegin(TIFFRGBAImage *a0, TIFF *a1, int a2, char a3[1024]) {
    return LAZY_FUNCTION(tiff, TIFFRGBAImageBegin)(a0, a1, a2, a3);
}

static void *pointer_TIFFRGBAImageEnd;
void TIFFRGBAImageEnd(TIFFRGBAImage *a0) {
    LAZY_FUNCTION(tiff, TIFFRGBAImageEnd)(a0);
}

static void *pointer_TIFFRGBAImageGet;
int TIFFRGBAImageGet(TIFFRGBAImage *a0, uint32_t *a1, uint32_t a2, uint32_t a3) {
    return LAZY_FUNCTION(tiff, TIFFRGBAImageGet)(a0, a1, a2, a3);
}

static void *pointer_TIFFRGBAImageOK;
int TIFFRGBAImageOK(TIFF *a0, char a1[1024]) {
    return LAZY_FUNCTION(tiff, TIFFRGBAImageOK)(a0, a1);
}

// TIFFGetField and TIFFGetFieldDefaulted are variadic: their wrappers call
// the library's va_list forms, which the variadic ones call themselves.
static void *pointer_TIFFVGetField;
int TIFFVGetField(TIFF *tif, uint32_t tag, va_list ap) {
    return LAZY_FUNCTION(tiff, TIFFVGetField)(tif, tag, ap);
}

int TIFFGetField(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int found = TIFFVGetField(tif, tag, ap);
    va_end(ap);
    return found;
}

static void *pointer_TIFFVGetFieldDefaulted;
int TIFFVGetFieldDefaulted(TIFF *tif, uint32_t tag, va_list ap) {
    return LAZY_FUNCTION(tiff, TIFFVGetFieldDefaulted)(tif, tag, ap);
}

int TIFFGetFieldDefaulted(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int found = TIFFVGetFieldDefaulted(tif, tag, ap);
    va_end(ap);
    return found;
}

// MARK: - libjpeg-turbo

static void *pointer_jpeg_CreateCompress;
void jpeg_CreateCompress(j_compress_ptr cinfo, int version, size_t structsize) {
    LAZY_FUNCTION(jpeg, jpeg_CreateCompress)(cinfo, version, structsize);
}

static void *pointer_jpeg_destroy_compress;
void jpeg_destroy_compress(j_compress_ptr cinfo) {
    LAZY_FUNCTION(jpeg, jpeg_destroy_compress)(cinfo);
}

static void *pointer_jpeg_finish_compress;
void jpeg_finish_compress(j_compress_ptr cinfo) {
    LAZY_FUNCTION(jpeg, jpeg_finish_compress)(cinfo);
}

static void *pointer_jpeg_set_defaults;
void jpeg_set_defaults(j_compress_ptr cinfo) {
    LAZY_FUNCTION(jpeg, jpeg_set_defaults)(cinfo);
}

static void *pointer_jpeg_set_quality;
void jpeg_set_quality(j_compress_ptr cinfo, int quality, boolean force_baseline) {
    LAZY_FUNCTION(jpeg, jpeg_set_quality)(cinfo, quality, force_baseline);
}

static void *pointer_jpeg_start_compress;
void jpeg_start_compress(j_compress_ptr cinfo, boolean write_all_tables) {
    LAZY_FUNCTION(jpeg, jpeg_start_compress)(cinfo, write_all_tables);
}

static void *pointer_jpeg_std_error;
struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *err) {
    return LAZY_FUNCTION(jpeg, jpeg_std_error)(err);
}

static void *pointer_jpeg_write_icc_profile;
void jpeg_write_icc_profile(j_compress_ptr cinfo, const JOCTET *icc_data_ptr, unsigned int icc_data_len) {
    LAZY_FUNCTION(jpeg, jpeg_write_icc_profile)(cinfo, icc_data_ptr, icc_data_len);
}

static void *pointer_jpeg_write_marker;
void jpeg_write_marker(j_compress_ptr cinfo, int marker, const JOCTET *dataptr, unsigned int datalen) {
    LAZY_FUNCTION(jpeg, jpeg_write_marker)(cinfo, marker, dataptr, datalen);
}

static void *pointer_jpeg_write_scanlines;
JDIMENSION jpeg_write_scanlines(j_compress_ptr cinfo, JSAMPARRAY scanlines, JDIMENSION num_lines) {
    return LAZY_FUNCTION(jpeg, jpeg_write_scanlines)(cinfo, scanlines, num_lines);
}
