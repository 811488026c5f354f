// Typed wrappers for libcurl's variadic functions, which Swift cannot call directly.
// One wrapper per argument kind; each forwards to the named libcurl function unchanged.
#ifndef CARILLON_CCURL_SHIM_H
#define CARILLON_CCURL_SHIM_H

#include <curl/curl.h>

/// `curl_easy_setopt` with a `long` argument.
static inline CURLcode carillon_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` with a `curl_off_t` argument.
static inline CURLcode carillon_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` with a C string argument (libcurl copies it).
static inline CURLcode carillon_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` with an opaque pointer argument (callback user data, private data).
static inline CURLcode carillon_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// `curl_easy_setopt` for `CURLOPT_WRITEFUNCTION` and `CURLOPT_HEADERFUNCTION`.
typedef size_t (*carillon_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode carillon_easy_setopt_write_callback(CURL *handle, CURLoption option, carillon_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// `curl_easy_setopt` for `CURLOPT_SSL_CTX_FUNCTION`: called with the TLS library's context (an
/// OpenSSL `SSL_CTX *` here) before each handshake.
typedef CURLcode (*carillon_ssl_ctx_callback)(CURL *handle, void *ssl_ctx, void *context);
static inline CURLcode carillon_easy_setopt_ssl_ctx_callback(CURL *handle, CURLoption option, carillon_ssl_ctx_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// `curl_easy_setopt` for `CURLOPT_DEBUGFUNCTION`: called with what libcurl sends and receives
/// (the request head as sent, the body bytes as received) while `CURLOPT_VERBOSE` is on.
typedef int (*carillon_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *context);
static inline CURLcode carillon_easy_setopt_debug_callback(CURL *handle, carillon_debug_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}

/// `curl_easy_getinfo` for a `long` result.
static inline CURLcode carillon_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo` for a `curl_off_t` result.
static inline CURLcode carillon_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo` for a string result (owned by the handle).
static inline CURLcode carillon_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `curl_easy_getinfo(CURLINFO_TLS_SSL_PTR)`: the connection's OpenSSL `SSL *`, or NULL when the
/// transfer has none (not yet connected, or another TLS backend).
static inline void *carillon_easy_tls_ssl(CURL *handle) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || !info) return NULL;
    return info->backend == CURLSSLBACKEND_OPENSSL ? info->internals : NULL;
}

/// `curl_share_setopt` with a `long` argument (`CURLSHOPT_SHARE`, `CURLSHOPT_UNSHARE`).
static inline CURLSHcode carillon_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

/// `curl_share_setopt` with an opaque pointer argument (`CURLSHOPT_USERDATA`).
static inline CURLSHcode carillon_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value) {
    return curl_share_setopt(share, option, value);
}

/// `curl_share_setopt(CURLSHOPT_LOCKFUNC)`.
static inline CURLSHcode carillon_share_setopt_lock(CURLSH *share, curl_lock_function callback) {
    return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, callback);
}

/// `curl_share_setopt(CURLSHOPT_UNLOCKFUNC)`.
static inline CURLSHcode carillon_share_setopt_unlock(CURLSH *share, curl_unlock_function callback) {
    return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, callback);
}

/// `curl_version_info(CURLVERSION_NOW)` (the macro is not imported): the versions of libcurl and the
/// libraries it was built with, without asking OpenLDAP for its own as `curl_version()` does.
static inline const curl_version_info_data *carillon_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif
