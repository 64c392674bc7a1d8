#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// libcurl's stable ABI numbers, from curl.h.
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
    OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20, OPT_FOLLOWLOCATION = 52, OPT_MAXREDIRS = 68,
    OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156, OPT_PROTOCOLS = 181,
    OPT_REDIR_PROTOCOLS = 182, OPT_USERAGENT = 10018,
    INFO_CONTENT_TYPE = 0x100000 + 18, INFO_RESPONSE_CODE = 0x200000 + 2,
    INFO_CONTENT_LENGTH_DOWNLOAD_T = 0x600000 + 15,
    PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_ALL = 3, ERROR_SIZE = 256,
    CODE_FAILED_INIT = 2, CODE_WRITE_ERROR = 23,
};

static struct {
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    int (*easy_setopt)(void *handle, int option, ...);
    int (*easy_perform)(void *handle);
    int (*easy_getinfo)(void *handle, int info, ...);
    void (*easy_cleanup)(void *handle);
    const char *(*easy_strerror)(int code);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure = "libcurl was not loaded";

static void load(void) {
    static const char *const names[] = {
#ifdef __APPLE__
        "/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", "libcurl.dylib",
#else
        "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so",
#endif
    };
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_failure = "libcurl is not installed (Debian: apt-get install libcurl4)";
        return;
    }
    *(void **)&curl.global_init = dlsym(library, "curl_global_init");
    *(void **)&curl.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&curl.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&curl.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&curl.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&curl.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    *(void **)&curl.easy_strerror = dlsym(library, "curl_easy_strerror");
    if (!curl.global_init || !curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo
        || !curl.easy_cleanup || !curl.easy_strerror) {
        load_failure = "the installed libcurl lacks a function AlbumStore needs";
        return;
    }
    // Not thread-safe in older libcurl, hence once per process, here.
    load_failure = curl.global_init(GLOBAL_ALL) == 0 ? NULL : "libcurl failed to initialise";
}

const char *ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

typedef struct transfer {
    void *context;
    ccurl_head_function on_head;
    ccurl_body_function on_body;
    ccurl_head *head;
    void *handle;
    int head_seen;
} transfer;

static void read_head(void *handle, ccurl_head *head) {
    long status = 0;
    long long length = -1;
    const char *type = NULL;
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &status);
    if (curl.easy_getinfo(handle, INFO_CONTENT_LENGTH_DOWNLOAD_T, &length) != 0) length = -1;
    curl.easy_getinfo(handle, INFO_CONTENT_TYPE, &type);
    head->status = status;
    head->content_length = length;
    snprintf(head->content_type, sizeof head->content_type, "%s", type ? type : "");
}

static size_t write_body(char *bytes, size_t size, size_t count, void *userdata) {
    transfer *t = userdata;
    size_t length = size * count;
    if (!t->head_seen) {
        read_head(t->handle, t->head);
        // The body of a redirect that libcurl follows is not the cover.
        if (t->head->status >= 300 && t->head->status < 400) return length;
        t->head_seen = 1;
        if (t->on_head(t->context, t->head) != 0) return 0;
    }
    return t->on_body(t->context, bytes, length) == 0 ? length : 0;
}

int ccurl_get(const char *url, long connect_timeout_ms, long idle_timeout_s, long total_timeout_ms,
              void *context, ccurl_head_function on_head, ccurl_body_function on_body,
              ccurl_head *head, char *message, size_t message_size) {
    memset(head, 0, sizeof *head);
    head->content_length = -1;
    if (message_size > 0) message[0] = 0;
    const char *failure = ccurl_load();
    if (failure) {
        snprintf(message, message_size, "%s", failure);
        return CODE_FAILED_INIT;
    }
    void *handle = curl.easy_init();
    if (!handle) {
        snprintf(message, message_size, "libcurl could not start a transfer");
        return CODE_FAILED_INIT;
    }
    transfer t = {context, on_head, on_body, head, handle, 0};
    char error[ERROR_SIZE] = "";
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, write_body);
    curl.easy_setopt(handle, OPT_WRITEDATA, &t);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, OPT_MAXREDIRS, 5L);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl.easy_setopt(handle, OPT_LOW_SPEED_LIMIT, 1L);
    curl.easy_setopt(handle, OPT_LOW_SPEED_TIME, idle_timeout_s);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, total_timeout_ms);
    curl.easy_setopt(handle, OPT_USERAGENT, "albumstore");
    int code = curl.easy_perform(handle);
    if (!t.head_seen) read_head(handle, head);
    if (code != 0 && code != CODE_WRITE_ERROR)
        snprintf(message, message_size, "%s", error[0] ? error : curl.easy_strerror(code));
    curl.easy_cleanup(handle);
    return code;
}
