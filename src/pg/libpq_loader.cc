// libpq loaded on first use (libpq_loader.h): the loader and one forwarding
// definition per libpq function the tool calls, each with libpq-fe.h's signature (the
// compiler checks them against the header's declarations).
#include "pg/libpq_loader.h"

#include <dlfcn.h>
#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace pgstorsim {
namespace {

struct Loaded {
  void* handle = nullptr;
  std::string error;  // Why handle is null.
};

const Loaded& Library() {
  static const Loaded loaded = [] {
    Loaded l;
    l.handle = dlopen(kLibpqSoname, RTLD_NOW | RTLD_LOCAL);
    if (l.handle == nullptr) {
      const char* why = dlerror();
      l.error = std::string("cannot load ") + kLibpqSoname + " (PostgreSQL's client library; " +
                "Debian package libpq5): " + (why != nullptr ? why : "unknown reason");
    }
    return l;
  }();
  return loaded;
}

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "pgstorsim: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(1);
}

// The library's function `name`; exits with one line when it cannot be had.
template <typename Fn>
Fn Real(const char* name) {
  const Loaded& l = Library();
  if (l.handle == nullptr) Fail(l.error);
  void* symbol = dlsym(l.handle, name);
  if (symbol == nullptr) Fail(std::string(kLibpqSoname) + " has no function " + name);
  return reinterpret_cast<Fn>(symbol);
}

}  // namespace

Status LoadLibpq() {
  const Loaded& l = Library();
  return l.handle != nullptr ? Status::Ok() : Status::Error(l.error);
}

}  // namespace pgstorsim

using pgstorsim::Real;

// The library's function `name`, typed as libpq-fe.h declares it: the name is written
// once, so the type and the symbol looked up cannot disagree.
#define PGSTORSIM_LIBPQ(name) Real<decltype(&name)>(#name)

void PQclear(PGresult* res) {
  static const auto real = PGSTORSIM_LIBPQ(PQclear);
  real(res);
}

PQconninfoOption* PQconndefaults() {
  static const auto real = PGSTORSIM_LIBPQ(PQconndefaults);
  return real();
}

PGconn* PQconnectdb(const char* conninfo) {
  static const auto real = PGSTORSIM_LIBPQ(PQconnectdb);
  return real(conninfo);
}

PGconn* PQconnectdbParams(const char* const* keywords, const char* const* values,
                          int expand_dbname) {
  static const auto real = PGSTORSIM_LIBPQ(PQconnectdbParams);
  return real(keywords, values, expand_dbname);
}

void PQconninfoFree(PQconninfoOption* options) {
  static const auto real = PGSTORSIM_LIBPQ(PQconninfoFree);
  real(options);
}

PQconninfoOption* PQconninfoParse(const char* conninfo, char** errmsg) {
  static const auto real = PGSTORSIM_LIBPQ(PQconninfoParse);
  return real(conninfo, errmsg);
}

int PQconsumeInput(PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQconsumeInput);
  return real(conn);
}

char* PQdb(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQdb);
  return real(conn);
}

char* PQerrorMessage(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQerrorMessage);
  return real(conn);
}

PGresult* PQexec(PGconn* conn, const char* query) {
  static const auto real = PGSTORSIM_LIBPQ(PQexec);
  return real(conn, query);
}

void PQfinish(PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQfinish);
  real(conn);
}

char* PQfname(const PGresult* res, int field) {
  static const auto real = PGSTORSIM_LIBPQ(PQfname);
  return real(res, field);
}

void PQfreemem(void* ptr) {
  static const auto real = PGSTORSIM_LIBPQ(PQfreemem);
  real(ptr);
}

PGresult* PQgetResult(PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQgetResult);
  return real(conn);
}

int PQgetisnull(const PGresult* res, int row, int field) {
  static const auto real = PGSTORSIM_LIBPQ(PQgetisnull);
  return real(res, row, field);
}

char* PQgetvalue(const PGresult* res, int row, int field) {
  static const auto real = PGSTORSIM_LIBPQ(PQgetvalue);
  return real(res, row, field);
}

char* PQhost(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQhost);
  return real(conn);
}

char* PQhostaddr(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQhostaddr);
  return real(conn);
}

int PQisBusy(PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQisBusy);
  return real(conn);
}

int PQlibVersion() {
  static const auto real = PGSTORSIM_LIBPQ(PQlibVersion);
  return real();
}

int PQnfields(const PGresult* res) {
  static const auto real = PGSTORSIM_LIBPQ(PQnfields);
  return real(res);
}

int PQntuples(const PGresult* res) {
  static const auto real = PGSTORSIM_LIBPQ(PQntuples);
  return real(res);
}

char* PQport(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQport);
  return real(conn);
}

PGresult* PQprepare(PGconn* conn, const char* name, const char* query, int n_params,
                    const Oid* types) {
  static const auto real = PGSTORSIM_LIBPQ(PQprepare);
  return real(conn, name, query, n_params, types);
}

int PQputCopyData(PGconn* conn, const char* buffer, int bytes) {
  static const auto real = PGSTORSIM_LIBPQ(PQputCopyData);
  return real(conn, buffer, bytes);
}

int PQputCopyEnd(PGconn* conn, const char* errormsg) {
  static const auto real = PGSTORSIM_LIBPQ(PQputCopyEnd);
  return real(conn, errormsg);
}

char* PQresultErrorField(const PGresult* res, int code) {
  static const auto real = PGSTORSIM_LIBPQ(PQresultErrorField);
  return real(res, code);
}

char* PQresultErrorMessage(const PGresult* res) {
  static const auto real = PGSTORSIM_LIBPQ(PQresultErrorMessage);
  return real(res);
}

ExecStatusType PQresultStatus(const PGresult* res) {
  static const auto real = PGSTORSIM_LIBPQ(PQresultStatus);
  return real(res);
}

int PQsendQuery(PGconn* conn, const char* query) {
  static const auto real = PGSTORSIM_LIBPQ(PQsendQuery);
  return real(conn, query);
}

int PQsendQueryPrepared(PGconn* conn, const char* name, int n_params, const char* const* values,
                        const int* lengths, const int* formats, int result_format) {
  static const auto real = PGSTORSIM_LIBPQ(PQsendQueryPrepared);
  return real(conn, name, n_params, values, lengths, formats, result_format);
}

int PQserverVersion(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQserverVersion);
  return real(conn);
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn* conn, PQnoticeProcessor proc, void* arg) {
  static const auto real = PGSTORSIM_LIBPQ(PQsetNoticeProcessor);
  return real(conn, proc, arg);
}

int PQsocket(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQsocket);
  return real(conn);
}

ConnStatusType PQstatus(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQstatus);
  return real(conn);
}

char* PQuser(const PGconn* conn) {
  static const auto real = PGSTORSIM_LIBPQ(PQuser);
  return real(conn);
}

#undef PGSTORSIM_LIBPQ
