// CLibXML2 declares the few libxml2 functions ShareIntake uses instead of
// including libxml2's headers (see CLibXML2.h). This file includes both: C
// refuses a function declared twice with different types and a typedef
// redefined as another type, so the build of this target (ShareIntake's
// tests depend on it) fails when a declaration disagrees with libxml2's;
// the constants are compared below.
#include <libxml/xmlreader.h>
#define SK_XML_DECLARATIONS_CHECK
#include "CLibXML2.h"
#include "CLibXML2Check.h"

_Static_assert(XML_PARSE_NOERROR == SK_XML_PARSE_NOERROR, "XML_PARSE_NOERROR");
_Static_assert(XML_PARSE_NOWARNING == SK_XML_PARSE_NOWARNING, "XML_PARSE_NOWARNING");
_Static_assert(XML_PARSE_NONET == SK_XML_PARSE_NONET, "XML_PARSE_NONET");
_Static_assert(XML_READER_TYPE_ELEMENT == SK_XML_READER_TYPE_ELEMENT, "XML_READER_TYPE_ELEMENT");

int sk_xml_declarations_checked(void) { return 1; }
