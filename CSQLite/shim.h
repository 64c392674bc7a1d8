// The system libsqlite3, with the session extension and the pre-update hook
// visible: Debian builds them in, but sqlite3.h only declares them when asked.
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config and sqlite3_db_config are variadic, which Swift cannot call.
static inline int csqlite_config_memstatus(int on) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on); }
static inline int csqlite_enable_lookaside(sqlite3 *db, int slotSize, int slotCount) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_LOOKASIDE, (void *)0, slotSize, slotCount);
}
