// AccessControl: what one session may do, as the coordinator sees it.
//
// The embedded layer gives every session one (src/auth implements it); the
// coordinator asks it before running any plan (and each statement of a
// BATCH), and hands it the role and permission statements to run.
#pragma once

#include "common/status.h"
#include "cql/plan.h"
#include "tessel/database.h"

namespace tessel::query {

class AccessControl {
  public:
    virtual ~AccessControl() = default;

    // OK, or Unauthorized with Cassandra's message when the session's role
    // lacks a permission the plan needs.
    virtual Status authorize(const cql::Plan& plan) = 0;

    // CREATE/ALTER/DROP ROLE, GRANT, REVOKE, LIST ROLES/PERMISSIONS.
    virtual Result<ResultSet> run_auth(const cql::AuthPlan& plan) = 0;

    // After a schema change this session made (the creator of a keyspace or
    // table gets its permissions).
    virtual void on_schema_change(const SchemaChange&) {}
};

}  // namespace tessel::query
