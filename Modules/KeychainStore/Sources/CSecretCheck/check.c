// CSecret declares the few libsecret and GLib functions KeychainSecretService
// uses instead of including their headers (see CSecret.h). This file
// includes both: C refuses a function declared twice with different types
// and a typedef redefined as another type, so the build of this target (the
// keychain's tests depend on it) fails when a declaration disagrees with the
// libraries'; the constants and the layouts of the structures Swift reads
// are compared below.
#include <libsecret/secret.h>
#define SK_SECRET_DECLARATIONS_CHECK
#include "CSecret.h"
#include "CSecretCheck.h"

#include <stddef.h>

_Static_assert(SECRET_SERVICE_OPEN_SESSION == SK_SECRET_SERVICE_OPEN_SESSION, "SECRET_SERVICE_OPEN_SESSION");
_Static_assert(SECRET_SCHEMA_NONE == SK_SECRET_SCHEMA_NONE, "SECRET_SCHEMA_NONE");
_Static_assert(SECRET_SEARCH_ALL == SK_SECRET_SEARCH_ALL, "SECRET_SEARCH_ALL");

/// The fields as CSecret.h declares them, beside GLib's own structures.
struct sk_error_layout {
    SK_GERROR_FIELDS
};
struct sk_list_layout {
    SK_GLIST_FIELDS
};

#define SAME_FIELD(ours, theirs, field)                                                  \
    _Static_assert(offsetof(struct ours, field) == offsetof(theirs, field) &&           \
                       sizeof(((struct ours *)0)->field) == sizeof(((theirs *)0)->field), \
                   #theirs "." #field)

_Static_assert(sizeof(struct sk_error_layout) == sizeof(GError), "GError");
SAME_FIELD(sk_error_layout, GError, domain);
SAME_FIELD(sk_error_layout, GError, code);
SAME_FIELD(sk_error_layout, GError, message);
_Static_assert(sizeof(struct sk_list_layout) == sizeof(GList), "GList");
SAME_FIELD(sk_list_layout, GList, data);
SAME_FIELD(sk_list_layout, GList, next);
SAME_FIELD(sk_list_layout, GList, prev);

int sk_secret_declarations_checked(void) { return 1; }
