// libmagic, loaded on first use: this file defines every libmagic function
// ShareIntake calls, under its own name, as a wrapper that opens
// libmagic.so.1 with dlopen on the first call and calls the library's
// function through a pointer of the type the header declares (the compiler
// checks each definition against that declaration). Nothing links libmagic,
// so a program that sniffs no file (`share --version`, a text share,
// `share-daemon`) does not map it with its compression libraries
// (docs/adr/0019-libraries-loaded-on-first-use.md). MagicSniffer calls
// `sk_magic_library_load` before its first cookie, so a missing libmagic is
// the sniff's error; a wrapper called without it ends the program with
// status 127. A new call needs its wrapper here: without one the program
// does not link.
#include "CMagicLoader.h"

#include <CLazyLibrary.h>
#include <magic.h>

// Link names `sharekit_<name>` for the wrappers below (docs/adr/0030).
#include "../CMagic/wrapped.h"

static lazy_library magic = LAZY_LIBRARY_INIT("libmagic.so.1", "libmagic", "libmagic1");

int sk_magic_library_load(char *message, size_t capacity) { return lazy_library_load(&magic, message, capacity); }

static void *pointer_magic_open;
magic_t magic_open(int a0) {
    return LAZY_FUNCTION(magic, magic_open)(a0);
}

static void *pointer_magic_load;
int magic_load(magic_t a0, const char *a1) {
    return LAZY_FUNCTION(magic, magic_load)(a0, a1);
}

static void *pointer_magic_setparam;
int magic_setparam(magic_t a0, int a1, const void *a2) {
    return LAZY_FUNCTION(magic, magic_setparam)(a0, a1, a2);
}

static void *pointer_magic_close;
void magic_close(magic_t a0) {
    LAZY_FUNCTION(magic, magic_close)(a0);
}

static void *pointer_magic_file;
const char *magic_file(magic_t a0, const char *a1) {
    return LAZY_FUNCTION(magic, magic_file)(a0, a1);
}

static void *pointer_magic_error;
const char *magic_error(magic_t a0) {
    return LAZY_FUNCTION(magic, magic_error)(a0);
}

static void *pointer_magic_errno;
int magic_errno(magic_t a0) {
    return LAZY_FUNCTION(magic, magic_errno)(a0);
}
