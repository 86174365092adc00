// libxml2, loaded on first use: this file defines every libxml2 function
// ShareIntake calls (declared in CLibXML2.h, checked against libxml2's
// headers by CLibXML2Check) as a wrapper that opens libxml2.so.2 with dlopen
// on the first call and calls the library's function through a pointer of
// the declared type. Nothing links libxml2, so a program that does not read
// the MIME database's XML (every program, while `mime.cache` is current)
// never maps it with ICU (docs/adr/0019-libraries-loaded-on-first-use.md). A
// program whose libxml2 cannot be loaded stops at the first call with the
// loader's message and exit status 127, as it did before when it could not
// start. A new call needs its declaration and wrapper here.
#include "CLibXML2.h"

#include <CLazyLibrary.h>

static lazy_library xml2 = LAZY_LIBRARY_INIT("libxml2.so.2", "libxml2", "libxml2");

int sk_xml_library_load(char *message, size_t capacity) { return lazy_library_load(&xml2, message, capacity); }

static void *pointer_xmlReaderForFile;
xmlTextReaderPtr xmlReaderForFile(const char *filename, const char *encoding, int options) {
    return LAZY_FUNCTION(xml2, xmlReaderForFile)(filename, encoding, options);
}

static void *pointer_xmlFreeTextReader;
void xmlFreeTextReader(xmlTextReaderPtr reader) {
    LAZY_FUNCTION(xml2, xmlFreeTextReader)(reader);
}

static void *pointer_xmlTextReaderRead;
int xmlTextReaderRead(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderRead)(reader);
}

static void *pointer_xmlTextReaderNodeType;
int xmlTextReaderNodeType(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderNodeType)(reader);
}

static void *pointer_xmlTextReaderDepth;
int xmlTextReaderDepth(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderDepth)(reader);
}

static void *pointer_xmlTextReaderConstLocalName;
const xmlChar *xmlTextReaderConstLocalName(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderConstLocalName)(reader);
}

static void *pointer_xmlTextReaderNext;
int xmlTextReaderNext(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderNext)(reader);
}

static void *pointer_xmlTextReaderMoveToAttribute;
int xmlTextReaderMoveToAttribute(xmlTextReaderPtr reader, const xmlChar *name) {
    return LAZY_FUNCTION(xml2, xmlTextReaderMoveToAttribute)(reader, name);
}

static void *pointer_xmlTextReaderMoveToElement;
int xmlTextReaderMoveToElement(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderMoveToElement)(reader);
}

static void *pointer_xmlTextReaderConstValue;
const xmlChar *xmlTextReaderConstValue(xmlTextReaderPtr reader) {
    return LAZY_FUNCTION(xml2, xmlTextReaderConstValue)(reader);
}
