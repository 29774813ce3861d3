// The tessel shell: reads CQL statements, runs them through a Backend
// (the embedded engine or a server over the network) and prints the results
// like cqlsh.
#pragma once

#include <istream>
#include <memory>
#include <ostream>
#include <string>

#include "common/status.h"
#include "tessel/database.h"

namespace tessel::shell {

// Where statements run. One page per call: page_size <= 0 asks for everything.
class Backend {
  public:
    virtual ~Backend() = default;
    virtual Result<ResultSet> execute(const std::string& cql, int32_t page_size,
                                      const std::string& paging_state) = 0;
    virtual std::string keyspace() const = 0;
};

// Runs statements against an embedded Database (owned by the backend).
std::unique_ptr<Backend> make_embedded_backend(std::unique_ptr<Database> db);
// Connects to a tesseld server; the error names the host and port.
// `username` empty: no credentials (a server with PasswordAuthenticator refuses).
Result<std::unique_ptr<Backend>> make_network_backend(const std::string& host, int port,
                                                      const std::string& username = "",
                                                      const std::string& password = "");

struct ShellOptions {
    bool interactive = false;  // prompt, and page long results with ---MORE---
    bool echo = false;         // print each statement before its result (approval files)
    int32_t page_size = 100;
};

class Shell {
  public:
    Shell(Backend& backend, ShellOptions options, std::ostream& out)
        : backend_(backend), options_(options), out_(out) {}

    // Reads and runs statements until end of input or EXIT/QUIT. Returns the
    // number of statements that failed.
    int run(std::istream& in);
    // Runs one complete statement (without its ';'). Returns false on error.
    bool run_statement(const std::string& statement, std::istream& in);

  private:
    bool run_shell_command(const std::string& statement);
    void print_rows(const std::string& statement, ResultSet first, std::istream& in);

    Backend& backend_;
    ShellOptions options_;
    std::ostream& out_;
    bool paging_enabled_ = true;
    bool quit_ = false;
};

}  // namespace tessel::shell
