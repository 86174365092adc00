// libsecret's and GLib's own headers (libsecret-1-dev), for CSecretCheck
// only: it compiles CSecret's declarations against them. Nothing imports
// this module from Swift and no program links it.
#pragma once
#include <libsecret/secret.h>
