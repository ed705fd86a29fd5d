#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: it tells SQLite to copy a bound value.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
/// SQLITE_STATIC: the bound value outlives the statement step, so SQLite need not copy it.
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
/// sqlite3_db_config is variadic, which Swift cannot call.
static inline int csqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
#endif
