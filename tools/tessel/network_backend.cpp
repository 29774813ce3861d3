#include "client/client.h"
#include "shell.h"

namespace tessel::shell {

namespace {

// Runs statements on a tesseld server through the C++ client. The keyspace is
// tracked from Set_keyspace results, as drivers do.
class NetworkBackend : public Backend {
  public:
    explicit NetworkBackend(std::unique_ptr<client::Client> client) : client_(std::move(client)) {}

    Result<ResultSet> execute(const std::string& cql, int32_t page_size,
                              const std::string& paging_state) override {
        client::QueryParameters params;
        params.consistency = 0x000A;  // LOCAL_ONE, as drivers default to
        if (page_size > 0) params.page_size = page_size;
        if (!paging_state.empty()) params.paging_state = paging_state;
        auto r = client_->query(cql, params);
        if (!r) return std::move(r).status();
        ResultSet out;
        out.warnings = r->warnings;
        switch (r->kind) {
            case protocol::ResultKind::kRows:
                out.kind = ResultSet::Kind::kRows;
                for (const auto& c : r->columns) {
                    out.columns.push_back({c.keyspace, c.table, c.name, c.type});
                }
                out.rows = std::move(r->rows);
                out.paging_state = r->paging_state.value_or("");
                break;
            case protocol::ResultKind::kSetKeyspace:
                out.kind = ResultSet::Kind::kSetKeyspace;
                out.keyspace = r->keyspace;
                keyspace_ = r->keyspace;
                break;
            case protocol::ResultKind::kSchemaChange:
                out.kind = ResultSet::Kind::kSchemaChange;
                break;
            default:
                out.kind = ResultSet::Kind::kVoid;
                break;
        }
        return out;
    }
    std::string keyspace() const override { return keyspace_; }

  private:
    std::unique_ptr<client::Client> client_;
    std::string keyspace_;
};

}  // namespace

Result<std::unique_ptr<Backend>> make_network_backend(const std::string& host, int port,
                                                      const std::string& username,
                                                      const std::string& password) {
    client::ClientOptions options;
    options.host = host;
    options.port = port;
    options.username = username;
    options.password = password;
    auto c = client::Client::connect(options);
    if (!c) return std::move(c).status();
    return std::unique_ptr<Backend>(std::make_unique<NetworkBackend>(std::move(c).value()));
}

}  // namespace tessel::shell
