#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// Debian's libpq-dev installs the header in /usr/include/postgresql, which pkg-config's `libpq` adds to the
// include path (`pg_config --includedir`).
#include <libpq-fe.h>

/// The PG_DIAG_* field codes are character macros, which Swift does not import.
static inline int clibpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int clibpq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
static inline int clibpq_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }
static inline int clibpq_diag_message_hint(void) { return PG_DIAG_MESSAGE_HINT; }
static inline int clibpq_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }
static inline int clibpq_diag_table_name(void) { return PG_DIAG_TABLE_NAME; }
static inline int clibpq_diag_severity(void) { return PG_DIAG_SEVERITY_NONLOCALIZED; }
#endif
