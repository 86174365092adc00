// libcurl as HTTPTransport calls it: every function through a wrapper that
// loads libcurl on first use (dlopen of libcurl.so.4; the program does not
// link it, so starting a program that makes no request costs nothing of
// libcurl), typed, non-variadic wrappers around its variadic calls
// (curl_easy_setopt, curl_easy_getinfo, curl_multi_setopt), which Swift
// cannot call, and the few macros Swift does not import. Each setopt wrapper
// passes its argument with exactly the C type the option documents, which
// is what curl's varargs reading requires. When libcurl cannot be loaded,
// every wrapper fails the way its function fails (NULL, CURLE_FAILED_INIT,
// CURLM_INTERNAL_ERROR) and ccurl_load_error() says why. Only HTTPTransport
// imports this.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

/// Why libcurl could not be loaded (the dynamic loader's message), or NULL when it is loaded.
const char *ccurl_load_error(void);

/// `LIBCURL_VERSION`: the libcurl version of the headers ShareKit was built with, e.g. `7.88.1`.
const char *ccurl_header_version(void);

CURLcode ccurl_global_init(long flags);
curl_version_info_data *ccurl_version_info(CURLversion age);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *multi);
CURLMsg *ccurl_multi_info_read(CURLM *multi, int *queued);
CURLU *ccurl_url(void);
void ccurl_url_cleanup(CURLU *handle);
CURLUcode ccurl_url_set(CURLU *handle, CURLUPart part, const char *content, unsigned int flags);
CURLUcode ccurl_url_get(CURLU *handle, CURLUPart part, char **content, unsigned int flags);
void ccurl_free(void *pointer);

/// An option that takes a `long` (flags, counts, milliseconds, enums).
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);

/// An option that takes a `curl_off_t` (sizes: `CURLOPT_INFILESIZE_LARGE`, `CURLOPT_POSTFIELDSIZE_LARGE`).
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);

/// An option that takes a pointer: a C string (copied by libcurl), a `curl_slist`, user data, an error buffer.
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);

/// `CURLOPT_READFUNCTION`.
CURLcode ccurl_easy_setopt_read_function(CURL *handle, curl_read_callback callback);

/// `CURLOPT_WRITEFUNCTION` or `CURLOPT_HEADERFUNCTION` (both take a `curl_write_callback`).
CURLcode ccurl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback);

/// `CURLOPT_SEEKFUNCTION`.
CURLcode ccurl_easy_setopt_seek_function(CURL *handle, curl_seek_callback callback);

/// `CURLOPT_XFERINFOFUNCTION`.
CURLcode ccurl_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);

/// A `CURLINFO_LONG` item.
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);

/// A `CURLINFO_OFF_T` item.
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

/// A `CURLMOPT` that takes a `long`.
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// `CURL_GLOBAL_ALL` (a macro of macros).
long ccurl_global_all(void);

/// `CURL_READFUNC_ABORT`: a read callback's answer that aborts the transfer.
size_t ccurl_readfunc_abort(void);

/// `CURL_SEEKFUNC_OK`, `CURL_SEEKFUNC_FAIL`, `CURL_SEEKFUNC_CANTSEEK`.
int ccurl_seekfunc_ok(void);
int ccurl_seekfunc_fail(void);
int ccurl_seekfunc_cantseek(void);

/// `CURL_ERROR_SIZE`: the size of a `CURLOPT_ERRORBUFFER`.
int ccurl_error_size(void);

/// The result of a finished transfer in a `CURLMsg` (a union member Swift reads awkwardly).
CURLcode ccurl_message_result(const CURLMsg *message);

#endif
