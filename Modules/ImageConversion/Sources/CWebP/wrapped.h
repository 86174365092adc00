// The functions of this library that the module's loader defines as wrappers
// (loaded on first use, docs/adr/0019), each declared again here with the
// link name `sharekit_<name>`: Swift and C callers keep writing the library's
// own name, but the symbol in the binary is ShareKit's, so it cannot clash with
// an application that links the library itself (docs/adr/0030). Included
// after the library's headers by the module's shim.h and by the loader, so
// both sides agree on the link name; tools/symbol-check fails when a wrapper
// is missing here.
#pragma once
// decode.h's own inline WebPInitDecoderConfig calls WebPInitDecoderConfigInternal, and a link name cannot
// be given after a use: so it is given here, before the header (every includer takes decode.h from here).
struct WebPDecoderConfig;
int WebPInitDecoderConfigInternal(struct WebPDecoderConfig *config, int version)
    __asm__("sharekit_WebPInitDecoderConfigInternal");
#include <webp/decode.h>

#ifndef SHAREKIT_WRAPPED
#define SHAREKIT_WRAPPED(name) __typeof__(name) name __asm__("sharekit_" #name);
#endif
SHAREKIT_WRAPPED(WebPIAppend)
SHAREKIT_WRAPPED(WebPIDecode)
SHAREKIT_WRAPPED(WebPIDelete)
