// Headers of libxml2 (libxml2-dev) that ShareIntake uses to read the
// freedesktop shared MIME database.
#pragma once
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so encoding.h would pull in the system's
// <unicode/*.h>, whose UErrorCode clashes with Foundation's _FoundationICU in
// any module that sees both. Only the streaming reader is used here (never
// xmlCharEncodingHandler, the one struct the ICU fields change), so the
// headers are read as if ICU were off.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
