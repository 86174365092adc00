// See check.c: CSecret's declarations compiled against libsecret's and
// GLib's headers.
#pragma once

/// 1: this target compiled, so every declaration of CSecret.h agrees with
/// libsecret's and GLib's own headers. The test calls it so that the check
/// is built.
int sk_secret_declarations_checked(void);
