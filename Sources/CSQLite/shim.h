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
/// Turns SQLite's double-quoted string literals off or on, for DML and DDL: with them off, a double-quoted name
/// that is not a column is an error instead of a string.
static inline int csqlite_db_config_dqs(sqlite3 *db, int on) {
    int a = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, on, (int *)0);
    int b = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, on, (int *)0);
    return a != SQLITE_OK ? a : b;
}
#endif
