// The functions of this library that the module's loader defines as wrappers
// (loaded on first use, docs/adr/0019), each declared again here with the
// link name `sharekit_<name>`: Swift and C callers keep writing the library's
// own name, but the symbol in the binary is ShareKit's, so it cannot clash with
// an application that links the library itself (docs/adr/0030). Included
// after the library's headers by the module's shim.h and by the loader, so
// both sides agree on the link name; tools/symbol-check fails when a wrapper
// is missing here.
#pragma once
#ifndef SHAREKIT_WRAPPED
#define SHAREKIT_WRAPPED(name) __typeof__(name) name __asm__("sharekit_" #name);
#endif
SHAREKIT_WRAPPED(jpeg_CreateCompress)
SHAREKIT_WRAPPED(jpeg_destroy_compress)
SHAREKIT_WRAPPED(jpeg_finish_compress)
SHAREKIT_WRAPPED(jpeg_set_defaults)
SHAREKIT_WRAPPED(jpeg_set_quality)
SHAREKIT_WRAPPED(jpeg_start_compress)
SHAREKIT_WRAPPED(jpeg_std_error)
SHAREKIT_WRAPPED(jpeg_write_icc_profile)
SHAREKIT_WRAPPED(jpeg_write_marker)
SHAREKIT_WRAPPED(jpeg_write_scanlines)
