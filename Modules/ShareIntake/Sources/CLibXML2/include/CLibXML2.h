// The part of libxml2 that ShareIntake uses (the streaming reader, for the
// shared MIME database's XML when its `mime.cache` is missing or stale),
// declared here instead of included, so that this module needs neither
// libxml2's include path (`/usr/include/libxml2`, which SwiftPM gives only
// together with libxml2's link flags) nor its ICU headers (whose UErrorCode
// clashes with Foundation's _FoundationICU). loader.c defines each function
// and opens libxml2 on first use (docs/adr/0019). Every declaration is
// checked against libxml2's own headers by CLibXML2Check, which compiles
// them together (a prototype or type that differs fails that build) and
// compares the constants.
#ifndef CLIBXML2_H
#define CLIBXML2_H

#include <stddef.h>

typedef unsigned char xmlChar;
typedef struct _xmlTextReader xmlTextReader;
typedef xmlTextReader *xmlTextReaderPtr;

// The values of libxml2's constants used here.
#define SK_XML_PARSE_NOERROR (1 << 5)
#define SK_XML_PARSE_NOWARNING (1 << 6)
#define SK_XML_PARSE_NONET (1 << 11)
#define SK_XML_READER_TYPE_ELEMENT 1

#ifndef SK_XML_DECLARATIONS_CHECK
/// libxml2's parser options used here (a subset of `xmlParserOption`).
typedef enum {
    XML_PARSE_NOERROR = SK_XML_PARSE_NOERROR,
    XML_PARSE_NOWARNING = SK_XML_PARSE_NOWARNING,
    XML_PARSE_NONET = SK_XML_PARSE_NONET,
} xmlParserOption;

/// libxml2's reader node types used here (a subset of `xmlReaderTypes`).
typedef enum {
    XML_READER_TYPE_ELEMENT = SK_XML_READER_TYPE_ELEMENT,
} xmlReaderTypes;
#endif

/// Opens libxml2 unless it is open. Returns 0, or -1 with "libxml2 could
/// not be loaded: <reason> (install the Debian package libxml2)" in
/// `message` (`capacity` bytes, NUL-terminated), for the reader to fail
/// with instead of the program ending at the first call.
int sk_xml_library_load(char *message, size_t capacity);

xmlTextReaderPtr xmlReaderForFile(const char *filename, const char *encoding, int options);
void xmlFreeTextReader(xmlTextReaderPtr reader);
int xmlTextReaderRead(xmlTextReaderPtr reader);
int xmlTextReaderNodeType(xmlTextReaderPtr reader);
int xmlTextReaderDepth(xmlTextReaderPtr reader);
const xmlChar *xmlTextReaderConstLocalName(xmlTextReaderPtr reader);
int xmlTextReaderNext(xmlTextReaderPtr reader);
int xmlTextReaderMoveToAttribute(xmlTextReaderPtr reader, const xmlChar *name);
int xmlTextReaderMoveToElement(xmlTextReaderPtr reader);
const xmlChar *xmlTextReaderConstValue(xmlTextReaderPtr reader);

// The link names of the functions above: loader.c defines them as `sharekit_<name>`, so that they
// cannot clash with an application that links the library itself (docs/adr/0030); tools/symbol-check
// fails when one is missing here. Not in the check, which compiles the library's own headers first: their
// inline functions use some of these, and a link name cannot be given after a use.
#ifndef SK_XML_DECLARATIONS_CHECK
#define SHAREKIT_WRAPPED(name) __typeof__(name) name __asm__("sharekit_" #name);
SHAREKIT_WRAPPED(xmlFreeTextReader)
SHAREKIT_WRAPPED(xmlReaderForFile)
SHAREKIT_WRAPPED(xmlTextReaderConstLocalName)
SHAREKIT_WRAPPED(xmlTextReaderConstValue)
SHAREKIT_WRAPPED(xmlTextReaderDepth)
SHAREKIT_WRAPPED(xmlTextReaderMoveToAttribute)
SHAREKIT_WRAPPED(xmlTextReaderMoveToElement)
SHAREKIT_WRAPPED(xmlTextReaderNext)
SHAREKIT_WRAPPED(xmlTextReaderNodeType)
SHAREKIT_WRAPPED(xmlTextReaderRead)

#endif

#endif
