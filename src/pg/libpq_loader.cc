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

void PQclear(PGresult* res) {
  static const auto real = Real<decltype(&PQclear)>("PQclear");
  real(res);
}

PQconninfoOption* PQconndefaults() {
  static const auto real = Real<decltype(&PQconndefaults)>("PQconndefaults");
  return real();
}

PGconn* PQconnectdb(const char* conninfo) {
  static const auto real = Real<decltype(&PQconnectdb)>("PQconnectdb");
  return real(conninfo);
}

PGconn* PQconnectdbParams(const char* const* keywords, const char* const* values,
                          int expand_dbname) {
  static const auto real = Real<decltype(&PQconnectdbParams)>("PQconnectdbParams");
  return real(keywords, values, expand_dbname);
}

void PQconninfoFree(PQconninfoOption* options) {
  static const auto real = Real<decltype(&PQconninfoFree)>("PQconninfoFree");
  real(options);
}

PQconninfoOption* PQconninfoParse(const char* conninfo, char** errmsg) {
  static const auto real = Real<decltype(&PQconninfoParse)>("PQconninfoParse");
  return real(conninfo, errmsg);
}

int PQconsumeInput(PGconn* conn) {
  static const auto real = Real<decltype(&PQconsumeInput)>("PQconsumeInput");
  return real(conn);
}

char* PQdb(const PGconn* conn) {
  static const auto real = Real<decltype(&PQdb)>("PQdb");
  return real(conn);
}

char* PQerrorMessage(const PGconn* conn) {
  static const auto real = Real<decltype(&PQerrorMessage)>("PQerrorMessage");
  return real(conn);
}

PGresult* PQexec(PGconn* conn, const char* query) {
  static const auto real = Real<decltype(&PQexec)>("PQexec");
  return real(conn, query);
}

void PQfinish(PGconn* conn) {
  static const auto real = Real<decltype(&PQfinish)>("PQfinish");
  real(conn);
}

char* PQfname(const PGresult* res, int field) {
  static const auto real = Real<decltype(&PQfname)>("PQfname");
  return real(res, field);
}

void PQfreemem(void* ptr) {
  static const auto real = Real<decltype(&PQfreemem)>("PQfreemem");
  real(ptr);
}

PGresult* PQgetResult(PGconn* conn) {
  static const auto real = Real<decltype(&PQgetResult)>("PQgetResult");
  return real(conn);
}

int PQgetisnull(const PGresult* res, int row, int field) {
  static const auto real = Real<decltype(&PQgetisnull)>("PQgetisnull");
  return real(res, row, field);
}

char* PQgetvalue(const PGresult* res, int row, int field) {
  static const auto real = Real<decltype(&PQgetvalue)>("PQgetvalue");
  return real(res, row, field);
}

char* PQhost(const PGconn* conn) {
  static const auto real = Real<decltype(&PQhost)>("PQhost");
  return real(conn);
}

char* PQhostaddr(const PGconn* conn) {
  static const auto real = Real<decltype(&PQhostaddr)>("PQhostaddr");
  return real(conn);
}

int PQisBusy(PGconn* conn) {
  static const auto real = Real<decltype(&PQisBusy)>("PQisBusy");
  return real(conn);
}

int PQlibVersion() {
  static const auto real = Real<decltype(&PQlibVersion)>("PQlibVersion");
  return real();
}

int PQnfields(const PGresult* res) {
  static const auto real = Real<decltype(&PQnfields)>("PQnfields");
  return real(res);
}

int PQntuples(const PGresult* res) {
  static const auto real = Real<decltype(&PQntuples)>("PQntuples");
  return real(res);
}

char* PQport(const PGconn* conn) {
  static const auto real = Real<decltype(&PQport)>("PQport");
  return real(conn);
}

PGresult* PQprepare(PGconn* conn, const char* name, const char* query, int n_params,
                    const Oid* types) {
  static const auto real = Real<decltype(&PQprepare)>("PQprepare");
  return real(conn, name, query, n_params, types);
}

int PQputCopyData(PGconn* conn, const char* buffer, int bytes) {
  static const auto real = Real<decltype(&PQputCopyData)>("PQputCopyData");
  return real(conn, buffer, bytes);
}

int PQputCopyEnd(PGconn* conn, const char* errormsg) {
  static const auto real = Real<decltype(&PQputCopyEnd)>("PQputCopyEnd");
  return real(conn, errormsg);
}

char* PQresultErrorField(const PGresult* res, int code) {
  static const auto real = Real<decltype(&PQresultErrorField)>("PQresultErrorField");
  return real(res, code);
}

char* PQresultErrorMessage(const PGresult* res) {
  static const auto real = Real<decltype(&PQresultErrorMessage)>("PQresultErrorMessage");
  return real(res);
}

ExecStatusType PQresultStatus(const PGresult* res) {
  static const auto real = Real<decltype(&PQresultStatus)>("PQresultStatus");
  return real(res);
}

int PQsendQuery(PGconn* conn, const char* query) {
  static const auto real = Real<decltype(&PQsendQuery)>("PQsendQuery");
  return real(conn, query);
}

int PQsendQueryPrepared(PGconn* conn, const char* name, int n_params, const char* const* values,
                        const int* lengths, const int* formats, int result_format) {
  static const auto real = Real<decltype(&PQsendQueryPrepared)>("PQsendQueryPrepared");
  return real(conn, name, n_params, values, lengths, formats, result_format);
}

int PQserverVersion(const PGconn* conn) {
  static const auto real = Real<decltype(&PQserverVersion)>("PQserverVersion");
  return real(conn);
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn* conn, PQnoticeProcessor proc, void* arg) {
  static const auto real = Real<decltype(&PQsetNoticeProcessor)>("PQsetNoticeProcessor");
  return real(conn, proc, arg);
}

int PQsocket(const PGconn* conn) {
  static const auto real = Real<decltype(&PQsocket)>("PQsocket");
  return real(conn);
}

ConnStatusType PQstatus(const PGconn* conn) {
  static const auto real = Real<decltype(&PQstatus)>("PQstatus");
  return real(conn);
}

char* PQuser(const PGconn* conn) {
  static const auto real = Real<decltype(&PQuser)>("PQuser");
  return real(conn);
}
