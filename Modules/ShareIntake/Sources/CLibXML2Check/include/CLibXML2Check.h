// See check.c: CLibXML2's declarations compiled against libxml2's headers.
#pragma once

/// 1: this target compiled, so every declaration of CLibXML2.h agrees with
/// libxml2's own headers. The test calls it so that the check is built.
int sk_xml_declarations_checked(void);
