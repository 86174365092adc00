// libxml2's own headers (libxml2-dev), for CLibXML2Check only: it compiles
// CLibXML2's declarations against them. Nothing imports this module from
// Swift and no program links it.
#pragma once
#include <libxml/xmlversion.h>
#include <libxml/xmlreader.h>
