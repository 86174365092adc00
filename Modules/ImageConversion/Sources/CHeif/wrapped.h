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
SHAREKIT_WRAPPED(heif_context_alloc)
SHAREKIT_WRAPPED(heif_context_free)
SHAREKIT_WRAPPED(heif_context_get_primary_image_handle)
SHAREKIT_WRAPPED(heif_context_read_from_reader)
SHAREKIT_WRAPPED(heif_context_set_max_decoding_threads)
SHAREKIT_WRAPPED(heif_context_set_maximum_image_size_limit)
SHAREKIT_WRAPPED(heif_decode_image)
SHAREKIT_WRAPPED(heif_decoding_options_alloc)
SHAREKIT_WRAPPED(heif_decoding_options_free)
SHAREKIT_WRAPPED(heif_image_get_bits_per_pixel_range)
SHAREKIT_WRAPPED(heif_image_get_height)
SHAREKIT_WRAPPED(heif_image_get_plane_readonly)
SHAREKIT_WRAPPED(heif_image_get_width)
SHAREKIT_WRAPPED(heif_image_handle_get_color_profile_type)
SHAREKIT_WRAPPED(heif_image_handle_get_height)
SHAREKIT_WRAPPED(heif_image_handle_get_ispe_height)
SHAREKIT_WRAPPED(heif_image_handle_get_ispe_width)
SHAREKIT_WRAPPED(heif_image_handle_get_list_of_metadata_block_IDs)
SHAREKIT_WRAPPED(heif_image_handle_get_metadata)
SHAREKIT_WRAPPED(heif_image_handle_get_metadata_content_type)
SHAREKIT_WRAPPED(heif_image_handle_get_metadata_size)
SHAREKIT_WRAPPED(heif_image_handle_get_number_of_metadata_blocks)
SHAREKIT_WRAPPED(heif_image_handle_get_raw_color_profile)
SHAREKIT_WRAPPED(heif_image_handle_get_raw_color_profile_size)
SHAREKIT_WRAPPED(heif_image_handle_get_width)
SHAREKIT_WRAPPED(heif_image_handle_has_alpha_channel)
SHAREKIT_WRAPPED(heif_image_handle_release)
SHAREKIT_WRAPPED(heif_image_is_premultiplied_alpha)
SHAREKIT_WRAPPED(heif_image_release)
