// libpq, loaded when a command first needs it rather than at process start.
//
// The executable does not link libpq: loading it and its dependencies (TLS, Kerberos,
// LDAP) costs about 10 ms at every start, which commands that never connect (predict,
// simulate, report, ...) should not pay. libpq_loader.cc defines each libpq function the
// tool calls with libpq-fe.h's exact signature; the first call loads libpq.so.5 with
// dlopen and forwards to the library's function. Code includes <libpq-fe.h> and calls
// PQ* functions as usual.
//
// LoadLibpq loads the library once per process (safe from any thread) and reports why
// it cannot; entry points that connect (OpenServer, Connect) call it first so a missing
// library is one error line. A PQ* call made when the library cannot be loaded prints
// that line to stderr and exits with status 1.
#ifndef PGSTORSIM_PG_LIBPQ_LOADER_H_
#define PGSTORSIM_PG_LIBPQ_LOADER_H_

#include "common/status.h"

namespace pgstorsim {

// The shared object loaded: libpq's soname (stable since PostgreSQL 8.0).
inline constexpr const char* kLibpqSoname = "libpq.so.5";

Status LoadLibpq();

}  // namespace pgstorsim

#endif  // PGSTORSIM_PG_LIBPQ_LOADER_H_
