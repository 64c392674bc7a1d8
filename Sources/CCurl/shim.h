// libcurl, the system's HTTP client, for cover downloads. curl_easy_setopt and
// curl_easy_getinfo are variadic, which Swift cannot call: these wrappers give each kind of
// argument a function of its own.
#include <curl/curl.h>

static inline CURLcode albumstore_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode albumstore_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

typedef size_t (*albumstore_curl_data_callback)(char *bytes, size_t size, size_t count, void *context);
typedef int (*albumstore_curl_progress_callback)(void *context, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode albumstore_curl_set_data_callback(CURL *curl, CURLoption option, albumstore_curl_data_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}

static inline CURLcode albumstore_curl_set_progress_callback(CURL *curl, albumstore_curl_progress_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline long albumstore_curl_response_code(CURL *curl) {
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

static inline curl_off_t albumstore_curl_content_length(CURL *curl) {
    curl_off_t length = -1;
    curl_easy_getinfo(curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    return length;
}

static inline const char *albumstore_curl_content_type(CURL *curl) {
    char *type = NULL;
    curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
    return type;
}
