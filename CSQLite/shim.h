// The system libsqlite3, with the session extension and the pre-update hook
// visible: Debian builds them in, but sqlite3.h only declares them when asked.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
