// libcurl, the system's HTTP client, for cover downloads and MusicBrainz's answers.
//
// Loaded with dlopen at the first download rather than linked: with the libraries it brings
// (TLS, Kerberos, LDAP, ...) it would cost every start of every process about 8 ms, more than a
// light command's whole work, for the few that download. curl_easy_setopt and curl_easy_getinfo
// are variadic, which Swift cannot call: the wrappers below give each kind of argument a
// function of its own.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef size_t (*albumstore_curl_data_callback)(char *bytes, size_t size, size_t count, void *context);
typedef int (*albumstore_curl_progress_callback)(void *context, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

/// The libcurl functions the downloads use, found in the loaded library.
typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
} albumstore_curl;

/// Loads libcurl and fills `api`; returns 0 when no libcurl can be loaded or a function is
/// missing. Call it once (Swift does, from a lazily made global).
static inline int albumstore_curl_load(albumstore_curl *api) {
    static const char *const names[] = {
        "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so", "/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", NULL,
    };
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return 0;
    api->global_init = (CURLcode (*)(long))dlsym(library, "curl_global_init");
    api->easy_init = (CURL *(*)(void))dlsym(library, "curl_easy_init");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(library, "curl_easy_setopt");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(library, "curl_easy_getinfo");
    api->easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(library, "curl_easy_strerror");
    if (!api->global_init || !api->easy_init || !api->easy_setopt || !api->easy_perform || !api->easy_getinfo
        || !api->easy_cleanup || !api->easy_strerror) return 0;
    return api->global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

static inline CURLcode albumstore_curl_set_long(const albumstore_curl *api, CURL *curl, CURLoption option, long value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_offset(const albumstore_curl *api, CURL *curl, CURLoption option, curl_off_t value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_string(const albumstore_curl *api, CURL *curl, CURLoption option, const char *value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_pointer(const albumstore_curl *api, CURL *curl, CURLoption option, void *value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_data_callback(const albumstore_curl *api, CURL *curl, CURLoption option,
                                                         albumstore_curl_data_callback callback) {
    return api->easy_setopt(curl, option, callback);
}

static inline CURLcode albumstore_curl_set_progress_callback(const albumstore_curl *api, CURL *curl,
                                                             albumstore_curl_progress_callback callback) {
    return api->easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline long albumstore_curl_response_code(const albumstore_curl *api, CURL *curl) {
    long code = 0;
    api->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

static inline curl_off_t albumstore_curl_content_length(const albumstore_curl *api, CURL *curl) {
    curl_off_t length = -1;
    api->easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    return length;
}

static inline const char *albumstore_curl_content_type(const albumstore_curl *api, CURL *curl) {
    char *type = NULL;
    api->easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
    return type;
}

/// The seconds a Retry-After header asked for (a number, or a date from now), 0 without one.
static inline curl_off_t albumstore_curl_retry_after(const albumstore_curl *api, CURL *curl) {
    curl_off_t seconds = 0;
    api->easy_getinfo(curl, CURLINFO_RETRY_AFTER, &seconds);
    return seconds;
}
