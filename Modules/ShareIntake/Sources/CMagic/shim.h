// Headers of libmagic (libmagic-dev) that ShareIntake uses to tell a
// content type from bytes.
#pragma once
#include <magic.h>
