// See CImageCodecShim.h: error handling and descriptor I/O for libjpeg,
// libtiff and libheif that Swift cannot express safely.
#include "CImageCodecShim.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>
#include <tiffio.h>

// The link names of the codec functions this shim calls: the loader defines them as `sharekit_<name>`
// (docs/adr/0030).
#include "../CHeif/wrapped.h"
#include "../CJPEG/wrapped.h"
#include "../CTIFF/wrapped.h"

// MARK: - Descriptor I/O

/// Reads up to `length` bytes at `offset`, retrying after a signal and a
/// short read; stops at the end of the file. Returns the count, or -1.
static ssize_t read_fully(int fd, void *buffer, size_t length, uint64_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = pread(fd, (uint8_t *)buffer + done, length - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

/// Writes all `length` bytes at `offset`. Returns 0, or the errno.
static int write_fully(int fd, const void *buffer, size_t length, uint64_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = pwrite(fd, (const uint8_t *)buffer + done, length - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return EIO;
        done += (size_t)n;
    }
    return 0;
}

// MARK: - JPEG writer

struct sk_jpeg_writer {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr error;
    struct jpeg_destination_mgr destination;
    jmp_buf jump;
    int fd;
    uint64_t offset;
    int write_errno;
    char message[JMSG_LENGTH_MAX + 64];
    JOCTET buffer[64 * 1024];
};

static void jpeg_fail(j_common_ptr cinfo) {
    sk_jpeg_writer *writer = (sk_jpeg_writer *)cinfo->client_data;
    if (writer->write_errno != 0) {
        snprintf(writer->message, sizeof writer->message, "%s", strerror(writer->write_errno));
    } else {
        (*cinfo->err->format_message)(cinfo, writer->message);
    }
    longjmp(writer->jump, 1);
}

// Warnings (corrupt-data notices and the like) are not printed: the
// program's stderr belongs to its own messages.
static void jpeg_quiet(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

static void jpeg_no_output(j_common_ptr cinfo) { (void)cinfo; }

static void destination_init(j_compress_ptr cinfo) {
    sk_jpeg_writer *writer = (sk_jpeg_writer *)cinfo->client_data;
    writer->destination.next_output_byte = writer->buffer;
    writer->destination.free_in_buffer = sizeof writer->buffer;
}

static void destination_flush(sk_jpeg_writer *writer, size_t length) {
    int code = write_fully(writer->fd, writer->buffer, length, writer->offset);
    if (code != 0) {
        writer->write_errno = code;
        ERREXIT(&writer->cinfo, JERR_FILE_WRITE);
    }
    writer->offset += length;
}

// libjpeg's contract: the whole buffer is written, whatever free_in_buffer says.
static boolean destination_empty(j_compress_ptr cinfo) {
    sk_jpeg_writer *writer = (sk_jpeg_writer *)cinfo->client_data;
    destination_flush(writer, sizeof writer->buffer);
    writer->destination.next_output_byte = writer->buffer;
    writer->destination.free_in_buffer = sizeof writer->buffer;
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    sk_jpeg_writer *writer = (sk_jpeg_writer *)cinfo->client_data;
    destination_flush(writer, sizeof writer->buffer - writer->destination.free_in_buffer);
}

sk_jpeg_writer *sk_jpeg_writer_new(int fd) {
    sk_jpeg_writer *writer = calloc(1, sizeof(sk_jpeg_writer));
    if (writer == NULL) return NULL;
    writer->fd = fd;
    writer->cinfo.err = jpeg_std_error(&writer->error);
    writer->error.error_exit = jpeg_fail;
    writer->error.emit_message = jpeg_quiet;
    writer->error.output_message = jpeg_no_output;
    writer->cinfo.client_data = writer;
    if (setjmp(writer->jump)) {
        free(writer);
        return NULL;
    }
    jpeg_create_compress(&writer->cinfo);
    writer->cinfo.client_data = writer;
    writer->destination.init_destination = destination_init;
    writer->destination.empty_output_buffer = destination_empty;
    writer->destination.term_destination = destination_term;
    writer->cinfo.dest = &writer->destination;
    return writer;
}

int sk_jpeg_writer_start(sk_jpeg_writer *writer, uint32_t width, uint32_t height, int quality,
                         const uint8_t *exif, size_t exif_length, const uint8_t *xmp, size_t xmp_length,
                         const uint8_t *icc, size_t icc_length) {
    if (setjmp(writer->jump)) return -1;
    if (exif_length > 65533 || xmp_length > 65533) {
        snprintf(writer->message, sizeof writer->message, "a metadata block is larger than a JPEG marker holds");
        return -1;
    }
    struct jpeg_compress_struct *cinfo = &writer->cinfo;
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 3;
    cinfo->in_color_space = JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    // Baseline, sequential, standard Huffman tables: optimised tables and
    // progressive mode would make libjpeg keep every coefficient of the image.
    cinfo->optimize_coding = FALSE;
    jpeg_start_compress(cinfo, TRUE);
    if (exif != NULL && exif_length > 0) jpeg_write_marker(cinfo, JPEG_APP0 + 1, exif, (unsigned int)exif_length);
    if (xmp != NULL && xmp_length > 0) jpeg_write_marker(cinfo, JPEG_APP0 + 1, xmp, (unsigned int)xmp_length);
    if (icc != NULL && icc_length > 0) jpeg_write_icc_profile(cinfo, icc, (unsigned int)icc_length);
    return 0;
}

int sk_jpeg_writer_write_rows(sk_jpeg_writer *writer, const uint8_t *rows, uint32_t count, size_t stride) {
    if (setjmp(writer->jump)) return -1;
    for (uint32_t i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(rows + (size_t)i * stride);
        if (jpeg_write_scanlines(&writer->cinfo, &row, 1) != 1) {
            snprintf(writer->message, sizeof writer->message, "the encoder took no row");
            return -1;
        }
    }
    return 0;
}

int sk_jpeg_writer_finish(sk_jpeg_writer *writer) {
    if (setjmp(writer->jump)) return -1;
    jpeg_finish_compress(&writer->cinfo);
    return 0;
}

const char *sk_jpeg_writer_message(const sk_jpeg_writer *writer) { return writer->message; }

int sk_jpeg_writer_write_errno(const sk_jpeg_writer *writer) { return writer->write_errno; }

uint64_t sk_jpeg_writer_bytes_written(const sk_jpeg_writer *writer) { return writer->offset; }

void sk_jpeg_writer_free(sk_jpeg_writer *writer) {
    if (writer == NULL) return;
    jpeg_destroy_compress(&writer->cinfo);
    free(writer);
}

// MARK: - TIFF reader

struct sk_tiff_reader {
    int fd;
    uint64_t size;
    uint64_t position;
    TIFF *tiff;
    TIFFRGBAImage image;
    int began;
    char message[512];
};

static tmsize_t tiff_read(thandle_t handle, void *buffer, tmsize_t length) {
    sk_tiff_reader *reader = (sk_tiff_reader *)handle;
    if (length < 0) return -1;
    ssize_t n = read_fully(reader->fd, buffer, (size_t)length, reader->position);
    if (n < 0) return -1;
    reader->position += (uint64_t)n;
    return (tmsize_t)n;
}

static tmsize_t tiff_write(thandle_t handle, void *buffer, tmsize_t length) {
    (void)handle;
    (void)buffer;
    (void)length;
    return -1;
}

static toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
    sk_tiff_reader *reader = (sk_tiff_reader *)handle;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? reader->position : reader->size;
    if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) return (toff_t)-1;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    reader->position = base + offset;
    return reader->position;
}

static int tiff_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t tiff_size(thandle_t handle) { return ((sk_tiff_reader *)handle)->size; }

static int tiff_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

// The first error is kept (later ones tend to be consequences); nothing reaches stderr.
static int tiff_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    sk_tiff_reader *reader = (sk_tiff_reader *)user_data;
    if (reader->message[0] == '\0') {
        int used = 0;
        if (module != NULL && module[0] != '\0') {
            used = snprintf(reader->message, sizeof reader->message, "%s: ", module);
            if (used < 0 || (size_t)used >= sizeof reader->message) used = 0;
        }
        vsnprintf(reader->message + used, sizeof reader->message - (size_t)used, format, arguments);
    }
    return 1;
}

static int tiff_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)user_data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}

sk_tiff_reader *sk_tiff_open(int fd, uint64_t size, int64_t max_allocation) {
    sk_tiff_reader *reader = calloc(1, sizeof(sk_tiff_reader));
    if (reader == NULL) return NULL;
    reader->fd = fd;
    reader->size = size;
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        free(reader);
        return NULL;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_allocation);
    TIFFOpenOptionsSetErrorHandlerExtR(options, tiff_error, reader);
    TIFFOpenOptionsSetWarningHandlerExtR(options, tiff_warning, reader);
    // "m": never memory-mapped, every byte goes through tiff_read.
    reader->tiff = TIFFClientOpenExt("image", "rm", (thandle_t)reader, tiff_read, tiff_write, tiff_seek, tiff_close,
                                     tiff_size, tiff_map, tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (reader->tiff == NULL && reader->message[0] == '\0') {
        snprintf(reader->message, sizeof reader->message, "not a TIFF file");
    }
    return reader;
}

int sk_tiff_begin(sk_tiff_reader *reader, uint32_t *width, uint32_t *height, uint32_t *band_rows,
                  uint32_t *tile_width, uint32_t *tile_length, uint16_t *orientation) {
    if (reader->tiff == NULL) return -1;
    char problem[1024] = {0};
    if (!TIFFRGBAImageOK(reader->tiff, problem) ||
        !TIFFRGBAImageBegin(&reader->image, reader->tiff, 1, problem)) {
        if (reader->message[0] == '\0') snprintf(reader->message, sizeof reader->message, "%s", problem);
        return -1;
    }
    reader->began = 1;
    // Rows come as stored: the caller applies the orientation itself.
    reader->image.req_orientation = reader->image.orientation;
    uint32_t rows = 0;
    *tile_width = 0;
    *tile_length = 0;
    if (TIFFIsTiled(reader->tiff)) {
        TIFFGetField(reader->tiff, TIFFTAG_TILELENGTH, &rows);
        TIFFGetField(reader->tiff, TIFFTAG_TILEWIDTH, tile_width);
        *tile_length = rows;
    } else {
        TIFFGetFieldDefaulted(reader->tiff, TIFFTAG_ROWSPERSTRIP, &rows);
    }
    if (rows == 0 || rows > reader->image.height) rows = reader->image.height;
    *width = reader->image.width;
    *height = reader->image.height;
    *band_rows = rows == 0 ? 1 : rows;
    *orientation = reader->image.orientation;
    return 0;
}

int sk_tiff_read_band(sk_tiff_reader *reader, uint32_t row, uint32_t rows, uint8_t *raster) {
    if (!reader->began || rows == 0 || row > reader->image.height || rows > reader->image.height - row) {
        if (reader->message[0] == '\0') snprintf(reader->message, sizeof reader->message, "rows out of range");
        return -1;
    }
    reader->image.row_offset = (int)row;
    reader->image.col_offset = 0;
    if (!TIFFRGBAImageGet(&reader->image, (uint32_t *)raster, reader->image.width, rows)) {
        if (reader->message[0] == '\0') snprintf(reader->message, sizeof reader->message, "a strip cannot be read");
        return -1;
    }
    return 0;
}

const char *sk_tiff_message(const sk_tiff_reader *reader) { return reader->message; }

void sk_tiff_close(sk_tiff_reader *reader) {
    if (reader == NULL) return;
    if (reader->began) TIFFRGBAImageEnd(&reader->image);
    if (reader->tiff != NULL) TIFFClose(reader->tiff);
    free(reader);
}

// MARK: - HEIF source

#define SK_HEIF_PATCHES 8

struct sk_heif_patch {
    int64_t offset;
    size_t length;
    uint8_t bytes[4];
};

struct sk_heif_source {
    int fd;
    int64_t size;
    int64_t position;
    int read_errno;
    size_t patch_count;
    struct sk_heif_patch patches[SK_HEIF_PATCHES];
};

// Lays the patches over the `length` bytes just read at `position` into `data`.
static void heif_apply_patches(const sk_heif_source *source, uint8_t *data, int64_t position, size_t length) {
    for (size_t i = 0; i < source->patch_count; i++) {
        const struct sk_heif_patch *patch = &source->patches[i];
        for (size_t k = 0; k < patch->length; k++) {
            int64_t at = patch->offset + (int64_t)k;
            if (at >= position && at - position < (int64_t)length) data[at - position] = patch->bytes[k];
        }
    }
}

static int64_t heif_position(void *user_data) { return ((sk_heif_source *)user_data)->position; }

static int heif_read(void *data, size_t length, void *user_data) {
    sk_heif_source *source = (sk_heif_source *)user_data;
    if (source->position < 0 || (uint64_t)length > (uint64_t)(source->size - source->position)) return -1;
    ssize_t n = read_fully(source->fd, data, length, (uint64_t)source->position);
    if (n < 0) source->read_errno = errno;
    if (n < 0 || (size_t)n != length) return -1;
    heif_apply_patches(source, data, source->position, length);
    source->position += (int64_t)length;
    return 0;
}

static int heif_seek(int64_t position, void *user_data) {
    sk_heif_source *source = (sk_heif_source *)user_data;
    if (position < 0 || position > source->size) return -1;
    source->position = position;
    return 0;
}

static enum heif_reader_grow_status heif_wait(int64_t target_size, void *user_data) {
    sk_heif_source *source = (sk_heif_source *)user_data;
    return target_size > source->size ? heif_reader_grow_status_size_beyond_eof : heif_reader_grow_status_size_reached;
}

static const struct heif_reader heif_descriptor_reader = {
    .reader_api_version = 1,
    .get_position = heif_position,
    .read = heif_read,
    .seek = heif_seek,
    .wait_for_file_size = heif_wait,
};

sk_heif_source *sk_heif_source_new(int fd, int64_t size) {
    sk_heif_source *source = calloc(1, sizeof(sk_heif_source));
    if (source == NULL) return NULL;
    source->fd = fd;
    source->size = size;
    return source;
}

int sk_heif_source_patch(sk_heif_source *source, int64_t offset, const uint8_t *bytes, size_t length) {
    if (source->patch_count >= SK_HEIF_PATCHES || length == 0 || length > 4 || offset < 0) return -1;
    struct sk_heif_patch *patch = &source->patches[source->patch_count++];
    patch->offset = offset;
    patch->length = length;
    memcpy(patch->bytes, bytes, length);
    return 0;
}

struct heif_error sk_heif_read(struct heif_context *context, sk_heif_source *source) {
    return heif_context_read_from_reader(context, &heif_descriptor_reader, source, NULL);
}

int sk_heif_source_errno(const sk_heif_source *source) { return source->read_errno; }

void sk_heif_source_free(sk_heif_source *source) { free(source); }
