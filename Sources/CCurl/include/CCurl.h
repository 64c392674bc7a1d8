// HTTP(S) GET through the system's libcurl, loaded with dlopen when first needed.
//
// Why not link libcurl (or Foundation's URLSession, which does): a linked libcurl drags about
// thirty shared libraries (TLS, Kerberos, LDAP, IDN...) into every start of the albumstore
// process, about 5 ms of the dynamic loader's time on each command, while only
// `covers fetch` downloads anything. Loaded on demand, they cost nothing elsewhere.
// The header declares no libcurl type: the few option and info numbers used are libcurl's
// stable ABI (curl.h), written out in CCurl.c.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// The head of the final response (after redirects).
typedef struct ccurl_head {
    long status;               // HTTP status; 0 when none arrived
    long long content_length;  // -1 when the server did not announce it
    char content_type[128];    // the Content-Type header, "" when absent (cut at 127 bytes)
} ccurl_head;

/// Called once with the final response's head, before its first body byte; non-zero stops.
typedef int (*ccurl_head_function)(void *context, const ccurl_head *head);
/// Called with each run of body bytes, in order; non-zero stops the transfer.
typedef int (*ccurl_body_function)(void *context, const char *bytes, size_t count);

/// Loads libcurl once per process; NULL when it is usable, else why not.
const char *ccurl_load(void);

/// GET `url`, following up to 5 redirects, http and https only. The transfer times out when
/// connecting takes over `connect_timeout_ms`, when no byte arrives for `idle_timeout_s`
/// seconds, or when it all takes over `total_timeout_ms`.
/// Returns libcurl's result code: 0 for a completed transfer, 23 when a callback stopped it,
/// 28 on a timeout; `message` receives libcurl's text for any other failure.
/// `head` is filled in after the transfer even when the body was empty.
int ccurl_get(const char *url, long connect_timeout_ms, long idle_timeout_s, long total_timeout_ms,
              void *context, ccurl_head_function on_head, ccurl_body_function on_body,
              ccurl_head *head, char *message, size_t message_size);

#endif
