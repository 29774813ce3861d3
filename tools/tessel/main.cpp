// tessel: the interactive CQL shell.
//   tessel --data-dir DIR          run on an embedded engine in DIR
//   tessel --host H --port P [-u USER -p PASSWORD]   connect to a running tesseld
//   -f FILE / -e 'STATEMENTS'      run a file or a string instead of a prompt
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "shell.h"

int main(int argc, char** argv) {
    CLI::App app{"tessel: the Tessel CQL shell"};
    std::string data_dir;
    std::string host;
    int port = 9042;
    std::string file;
    std::string execute;
    bool echo = false;
    app.add_option("--data-dir", data_dir, "Open an embedded engine on this directory");
    app.add_option("--host", host, "Connect to a tesseld server");
    app.add_option("--port", port, "Server port");
    std::string username, password;
    app.add_option("-u,--username", username, "Log in as this role (PasswordAuthenticator)");
    app.add_option("-p,--password", password, "The role's password");
    app.add_option("-f,--file", file, "Run the statements of a file and exit");
    app.add_option("-e,--execute", execute, "Run these statements and exit");
    app.add_flag("--echo", echo, "Print each statement before its result");
    CLI11_PARSE(app, argc, argv);

    std::unique_ptr<tessel::shell::Backend> backend;
    if (!host.empty() && !data_dir.empty()) {
        std::cerr << "tessel: give either --host (a server) or --data-dir (embedded), not both\n";
        return 2;
    }
    if (!host.empty()) {
        auto b = tessel::shell::make_network_backend(host, port, username, password);
        if (!b) {
            std::cerr << "tessel: " << b.status().to_string() << "\n";
            return 2;
        }
        backend = std::move(b).value();
    } else {
        if (data_dir.empty()) data_dir = "./data";
        tessel::DatabaseOptions options;
        options.data_dir = data_dir;
        auto db = tessel::Database::open(options);
        if (!db) {
            std::cerr << "tessel: cannot open " << data_dir << ": " << db.status().to_string()
                      << "\n";
            return 2;
        }
        backend = tessel::shell::make_embedded_backend(std::move(db).value());
    }

    tessel::shell::ShellOptions shell_options;
    shell_options.echo = echo;
    std::unique_ptr<std::istream> input;
    if (!file.empty()) {
        auto f = std::make_unique<std::ifstream>(file);
        if (!*f) {
            std::cerr << "tessel: cannot read " << file << "\n";
            return 2;
        }
        input = std::move(f);
    } else if (!execute.empty()) {
        input = std::make_unique<std::istringstream>(execute);
    } else {
        shell_options.interactive = isatty(STDIN_FILENO) != 0;
    }
    tessel::shell::Shell shell(*backend, shell_options, std::cout);
    int failures = shell.run(input ? *input : std::cin);
    if (shell_options.interactive) std::cout << "\n";
    return (input && failures > 0) ? 1 : 0;
}
