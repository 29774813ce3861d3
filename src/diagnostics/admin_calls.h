// Administrative operations that a SELECT cannot express, as CQL text the
// server accepts on any connection (so tessel-admin needs nothing but CQL):
//
//   CALL system.flush()                      flush every table's memtables
//   CALL system.flush('ks')                  ... of one keyspace
//   CALL system.flush('ks', 'table')         ... of one table
//   CALL system.compact()                    major compaction, same scopes
//   CALL system.compact('ks'[, 'table'])
//   CALL system.repair(['ks'[, 'table']])    anti-entropy repair (a cluster)
//   CALL system.decommission()               this node moves every tablet
//                                            replica it holds to the others,
//                                            then leaves the cluster
//   CALL system.removenode('host id')        a dead node leaves the cluster;
//                                            its replicas are rebuilt from
//                                            the survivors
//
// The keyword CALL and the procedure name are case-insensitive; arguments are
// CQL string literals ('' escapes a quote); a trailing ';' is allowed. The
// server answers a successful flush or compaction with a Void result, and a
// repair with one row per table repaired.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::diagnostics {

struct AdminCall {
    enum class Op { kFlush, kCompact, kRepair, kDecommission, kRemoveNode };
    Op op = Op::kFlush;
    std::string keyspace;  // empty: every keyspace
    std::string table;     // empty: every table of the keyspace
    std::string host_id;   // kRemoveNode: 32 hex digits, as system.peers shows it
    bool operator==(const AdminCall&) const = default;
};

// nullopt when `cql` is not a CALL statement (the caller parses it as CQL);
// otherwise the call, or Syntax_error / Invalid naming what is wrong.
std::optional<Result<AdminCall>> parse_admin_call(std::string_view cql);

// "flush", "compact", "repair", "decommission", "removenode".
std::string_view admin_call_name(AdminCall::Op op);

// The statement text for a call ("CALL system.flush('ks', 'table')").
std::string admin_call_text(const AdminCall& call);

}  // namespace tessel::diagnostics
