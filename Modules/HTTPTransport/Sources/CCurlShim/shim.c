#include "CCurlShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/// The shared library, by its SONAME (libcurl's since 2006).
#define CCURL_LIBRARY "libcurl.so.4"

// libcurl is opened on first use, not when the program starts: loading it
// with everything it links (OpenSSL, GnuTLS, Kerberos, LDAP, SSH, ...) costs
// about 5 ms and 5 MiB, which a program that never makes a request (share
// --version, share inbox list) should not pay. Every function is looked up
// by name in that library and called through a pointer of the type the
// header declares (__typeof__ is unevaluated: nothing here references the
// real symbols, so the program does not link libcurl).

static void *library;
static char loadError[256];
static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void openLibrary(void) {
    library = dlopen(CCURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *first = dlerror();
        snprintf(loadError, sizeof loadError, "%s", first ? first : CCURL_LIBRARY " could not be loaded");
        // A system with only the development symlink.
        library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    }
}

static void *symbol(const char *name) {
    pthread_once(&loadOnce, openLibrary);
    return library == NULL ? NULL : dlsym(library, name);
}

// A function's pointer, looked up once and kept (a race only looks it up twice).
#define LAZY(name)                                                                   \
    static __typeof__(&name) lazy_##name(void) {                                     \
        static __typeof__(&name) cached;                                             \
        __typeof__(&name) found = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);       \
        if (found == NULL) {                                                         \
            found = (__typeof__(&name))symbol(#name);                                \
            __atomic_store_n(&cached, found, __ATOMIC_RELEASE);                      \
        }                                                                            \
        return found;                                                                \
    }

LAZY(curl_global_init)
LAZY(curl_version_info)
LAZY(curl_easy_init)
LAZY(curl_easy_cleanup)
LAZY(curl_easy_setopt)
LAZY(curl_easy_getinfo)
LAZY(curl_easy_strerror)
LAZY(curl_slist_append)
LAZY(curl_slist_free_all)
LAZY(curl_multi_init)
LAZY(curl_multi_cleanup)
LAZY(curl_multi_setopt)
LAZY(curl_multi_add_handle)
LAZY(curl_multi_remove_handle)
LAZY(curl_multi_perform)
LAZY(curl_multi_poll)
LAZY(curl_multi_wakeup)
LAZY(curl_multi_info_read)
LAZY(curl_url)
LAZY(curl_url_cleanup)
LAZY(curl_url_set)
LAZY(curl_url_get)
LAZY(curl_free)

const char *ccurl_load_error(void) {
    pthread_once(&loadOnce, openLibrary);
    return library == NULL ? loadError : NULL;
}

const char *ccurl_header_version(void) { return LIBCURL_VERSION; }

// MARK: - Plain calls

CURLcode ccurl_global_init(long flags) {
    __typeof__(&curl_global_init) f = lazy_curl_global_init();
    return f ? f(flags) : CURLE_FAILED_INIT;
}

curl_version_info_data *ccurl_version_info(CURLversion age) {
    __typeof__(&curl_version_info) f = lazy_curl_version_info();
    return f ? f(age) : NULL;
}

CURL *ccurl_easy_init(void) {
    __typeof__(&curl_easy_init) f = lazy_curl_easy_init();
    return f ? f() : NULL;
}

void ccurl_easy_cleanup(CURL *handle) {
    __typeof__(&curl_easy_cleanup) f = lazy_curl_easy_cleanup();
    if (f) f(handle);
}

const char *ccurl_easy_strerror(CURLcode code) {
    __typeof__(&curl_easy_strerror) f = lazy_curl_easy_strerror();
    return f ? f(code) : "libcurl is not available";
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    __typeof__(&curl_slist_append) f = lazy_curl_slist_append();
    return f ? f(list, line) : NULL;
}

void ccurl_slist_free_all(struct curl_slist *list) {
    __typeof__(&curl_slist_free_all) f = lazy_curl_slist_free_all();
    if (f) f(list);
}

CURLM *ccurl_multi_init(void) {
    __typeof__(&curl_multi_init) f = lazy_curl_multi_init();
    return f ? f() : NULL;
}

CURLMcode ccurl_multi_cleanup(CURLM *multi) {
    __typeof__(&curl_multi_cleanup) f = lazy_curl_multi_cleanup();
    return f ? f(multi) : CURLM_INTERNAL_ERROR;
}

CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) {
    __typeof__(&curl_multi_add_handle) f = lazy_curl_multi_add_handle();
    return f ? f(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) {
    __typeof__(&curl_multi_remove_handle) f = lazy_curl_multi_remove_handle();
    return f ? f(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode ccurl_multi_perform(CURLM *multi, int *running) {
    __typeof__(&curl_multi_perform) f = lazy_curl_multi_perform();
    return f ? f(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready) {
    __typeof__(&curl_multi_poll) f = lazy_curl_multi_poll();
    return f ? f(multi, extra, count, timeout, ready) : CURLM_INTERNAL_ERROR;
}

CURLMcode ccurl_multi_wakeup(CURLM *multi) {
    __typeof__(&curl_multi_wakeup) f = lazy_curl_multi_wakeup();
    return f ? f(multi) : CURLM_INTERNAL_ERROR;
}

CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued) {
    __typeof__(&curl_multi_info_read) f = lazy_curl_multi_info_read();
    return f ? f(multi, queued) : NULL;
}

CURLU *ccurl_url(void) {
    __typeof__(&curl_url) f = lazy_curl_url();
    return f ? f() : NULL;
}

void ccurl_url_cleanup(CURLU *handle) {
    __typeof__(&curl_url_cleanup) f = lazy_curl_url_cleanup();
    if (f) f(handle);
}

CURLUcode ccurl_url_set(CURLU *handle, CURLUPart part, const char *content, unsigned int flags) {
    __typeof__(&curl_url_set) f = lazy_curl_url_set();
    return f ? f(handle, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode ccurl_url_get(CURLU *handle, CURLUPart part, char **content, unsigned int flags) {
    __typeof__(&curl_url_get) f = lazy_curl_url_get();
    return f ? f(handle, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

void ccurl_free(void *pointer) {
    __typeof__(&curl_free) f = lazy_curl_free();
    if (f) f(pointer);
}

// MARK: - Variadic calls, typed

#define SETOPT(handle, option, value)                                    \
    __typeof__(&curl_easy_setopt) f = lazy_curl_easy_setopt();           \
    return f ? f(handle, option, value) : CURLE_FAILED_INIT

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) { SETOPT(handle, option, value); }

CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) { SETOPT(handle, option, value); }

CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) { SETOPT(handle, option, value); }

CURLcode ccurl_easy_setopt_read_function(CURL *handle, curl_read_callback callback) {
    SETOPT(handle, CURLOPT_READFUNCTION, callback);
}

CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) {
    SETOPT(handle, option, callback);
}

CURLcode ccurl_easy_setopt_seek_function(CURL *handle, curl_seek_callback callback) {
    SETOPT(handle, CURLOPT_SEEKFUNCTION, callback);
}

CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    SETOPT(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    __typeof__(&curl_easy_getinfo) f = lazy_curl_easy_getinfo();
    return f ? f(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    __typeof__(&curl_easy_getinfo) f = lazy_curl_easy_getinfo();
    return f ? f(handle, info, value) : CURLE_FAILED_INIT;
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    __typeof__(&curl_multi_setopt) f = lazy_curl_multi_setopt();
    return f ? f(multi, option, value) : CURLM_INTERNAL_ERROR;
}

// MARK: - Macros

long ccurl_global_all(void) { return CURL_GLOBAL_ALL; }

size_t ccurl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }

int ccurl_seekfunc_ok(void) { return CURL_SEEKFUNC_OK; }
int ccurl_seekfunc_fail(void) { return CURL_SEEKFUNC_FAIL; }
int ccurl_seekfunc_cantseek(void) { return CURL_SEEKFUNC_CANTSEEK; }

int ccurl_error_size(void) { return CURL_ERROR_SIZE; }

CURLcode ccurl_message_result(const CURLMsg *message) { return message->data.result; }
