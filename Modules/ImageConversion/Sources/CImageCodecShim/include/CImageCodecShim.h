// What Swift cannot do safely with three C libraries, behind plain functions
// that return an error code instead:
//
// - libjpeg reports errors by calling `error_exit`, which must not return
//   (the default one calls `exit`); here it `longjmp`s back into the C
//   function that made the call, which Swift code could not do.
// - libtiff reports errors through variadic handlers (`va_list`); here they
//   are formatted into the reader's message buffer instead of stderr.
// - libheif and libtiff read through callbacks; here they read an open file
//   descriptor with `pread`, so neither library ever sees a path.
//
// Only ImageConversion imports this module.
#ifndef CIMAGECODEC_SHIM_H
#define CIMAGECODEC_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <libheif/heif.h>
// The link names of libheif's functions (`sharekit_<name>`, docs/adr/0030): Swift sees libheif's
// declarations through this module too, and must call the loader's wrappers.
#include "../../CHeif/wrapped.h"

// MARK: - JPEG writer (libjpeg-turbo)

/// A JPEG being written to a file descriptor, 8-bit RGB rows top to bottom.
typedef struct sk_jpeg_writer sk_jpeg_writer;

/// Makes a writer for `fd`, written with `pwrite` from offset 0 (the
/// descriptor's position is not used). Nothing is written yet.
/// Returns NULL only when memory is exhausted.
sk_jpeg_writer *sk_jpeg_writer_new(int fd);

/// Starts the JPEG: the header, then each metadata block given (a NULL
/// pointer or a zero length writes none). `exif` and `xmp` are whole APP1
/// payloads (with their `Exif\0\0` or namespace prefix, at most 65533
/// bytes); `icc` is an ICC profile, split into APP2 markers as needed.
/// Returns 0, or -1 with ``sk_jpeg_writer_message`` set.
int sk_jpeg_writer_start(sk_jpeg_writer *writer, uint32_t width, uint32_t height, int quality,
                         const uint8_t *exif, size_t exif_length, const uint8_t *xmp, size_t xmp_length,
                         const uint8_t *icc, size_t icc_length);

/// Compresses `count` rows of `width` × 3 bytes (R, G, B), `stride` bytes
/// apart. Returns 0, or -1 with the message set.
int sk_jpeg_writer_write_rows(sk_jpeg_writer *writer, const uint8_t *rows, uint32_t count, size_t stride);

/// Ends the JPEG (EOI) and writes what is buffered. Returns 0, or -1.
int sk_jpeg_writer_finish(sk_jpeg_writer *writer);

/// The last error, empty when none.
const char *sk_jpeg_writer_message(const sk_jpeg_writer *writer);

/// The `errno` of the write that failed (ENOSPC for a full disk), 0 when
/// the failure was not a write.
int sk_jpeg_writer_write_errno(const sk_jpeg_writer *writer);

/// How many bytes have been written to the descriptor.
uint64_t sk_jpeg_writer_bytes_written(const sk_jpeg_writer *writer);

/// Frees the writer (the descriptor stays open).
void sk_jpeg_writer_free(sk_jpeg_writer *writer);

// MARK: - TIFF reader (libtiff)

/// The first image of a TIFF file, read in bands of rows as 8-bit RGBA.
typedef struct sk_tiff_reader sk_tiff_reader;

/// Opens the TIFF in `fd` (`size` bytes; read with `pread`, never mapped).
/// No single allocation of libtiff may exceed `max_allocation` bytes.
/// Returns NULL only when memory is exhausted; otherwise check
/// ``sk_tiff_begin``, which fails with the message of a failed open.
sk_tiff_reader *sk_tiff_open(int fd, uint64_t size, int64_t max_allocation);

/// Reads the first image's geometry: its size, the number of rows one read
/// of a strip or a row of tiles gives (`band_rows`, at least 1), the size
/// of a tile (libtiff holds one whole while reading; 0 × 0 for strips), and
/// its Orientation tag (1 when absent). Nothing of the image is read yet.
/// Returns 0, or -1 with the message set.
int sk_tiff_begin(sk_tiff_reader *reader, uint32_t *width, uint32_t *height, uint32_t *band_rows,
                  uint32_t *tile_width, uint32_t *tile_length, uint16_t *orientation);

/// Reads rows `row` to `row + rows - 1`, as stored (the Orientation tag is
/// not applied), top to bottom, into `raster`: `rows` × width pixels of 4
/// bytes R, G, B, A with the colour premultiplied by the alpha.
/// Returns 0, or -1 with the message set.
int sk_tiff_read_band(sk_tiff_reader *reader, uint32_t row, uint32_t rows, uint8_t *raster);

/// The first error libtiff reported, empty when none.
const char *sk_tiff_message(const sk_tiff_reader *reader);

/// Closes the TIFF and frees the reader (the descriptor stays open).
void sk_tiff_close(sk_tiff_reader *reader);

// MARK: - HEIF source (libheif)

/// A file descriptor as libheif's reader: `pread` at its own position.
typedef struct sk_heif_source sk_heif_source;

/// Makes a source over `fd` of `size` bytes. NULL when memory is exhausted.
sk_heif_source *sk_heif_source_new(int fd, int64_t size);

/// Makes the source read `length` bytes (at most 4) at `offset` as `bytes`
/// instead of what the file has there, for every later read: a view of the
/// file with one of a grid's tiles as its primary image, so that libheif
/// decodes that tile alone (libheif 1.15 hands out no handle to a tile).
/// At most 8 patches; returns 0, or -1 when there is no room or `length`
/// is not 1 to 4.
int sk_heif_source_patch(sk_heif_source *source, int64_t offset, const uint8_t *bytes, size_t length);

/// Reads the HEIF file's structure from `source` into `context`. The source
/// must outlive the context: libheif reads image data from it on decoding.
struct heif_error sk_heif_read(struct heif_context *context, sk_heif_source *source);

/// The `errno` of the read that failed, 0 when none did.
int sk_heif_source_errno(const sk_heif_source *source);

/// Frees the source (the descriptor stays open).
void sk_heif_source_free(sk_heif_source *source);

#endif
