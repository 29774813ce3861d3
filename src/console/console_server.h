// ConsoleServer: tesseld's web console (`--http-port`, config `http_port`).
//
// One cpp-httplib server on its own threads serves the console page and its
// assets (built into the binary, assets.h), the JSON endpoints under /api/
// (api.h) and, with PasswordAuthenticator, a login form: POST /login checks
// the role's password as CQL does and sets an HttpOnly, SameSite=Strict
// session cookie (login_sessions.h); without one, pages redirect to /login and
// /api/ answers 401. The console is read-only: GET and HEAD only, besides
// POST /login and /logout. A Sampler thread records the heat-map history.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "console/heatmap_history.h"
#include "tessel/database.h"

namespace tessel::console {

struct ConsoleOptions {
    std::string address = "127.0.0.1";
    int port = 0;  // 0: a free port (see port())
    HeatmapHistoryOptions history;
};

class ConsoleServer {
  public:
    // `db` must outlive the server.
    explicit ConsoleServer(Database& db);
    ~ConsoleServer();  // stop()
    ConsoleServer(const ConsoleServer&) = delete;
    ConsoleServer& operator=(const ConsoleServer&) = delete;

    // Binds and starts serving and sampling. Config_error for a bad port,
    // Server_error when address:port cannot be bound.
    Status start(const ConsoleOptions& options);
    int port() const;
    // Stops serving (open connections end) and sampling. Idempotent.
    void stop();

  private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tessel::console
