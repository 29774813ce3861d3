// Paging state: the opaque bytes a client sends back to fetch the next page.
//
// Self-contained so it works on any session, after a restart and on any node
// sharing the secret: it records where the previous page stopped (the
// physical partition key and the clustering of the last row returned), what
// remains of LIMIT and PER PARTITION LIMIT, and which table and query it
// belongs to. An HMAC-SHA256 with the node secret authenticates it, so a
// forged or altered state cannot make a read start anywhere the server did
// not put it; a state from another query or table is refused too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::query {

struct PagingState {
    std::string table_id;     // the table's identity (opaque bytes)
    std::string fingerprint;  // query_fingerprint() of the statement and its values
    // columns_digest() of the result columns the first page had: a page after
    // an ALTER TABLE that changed them is refused rather than sent with
    // columns the client's metadata does not describe.
    std::string columns;
    std::string partition_key;  // physical key of the partition of the last row
    std::string clustering;     // clustering of the last row (empty: static-only row)
    // The last partition is finished: resume at the partition after it.
    bool partition_done = false;
    int64_t remaining = -1;               // rows of LIMIT left; -1 = no limit
    int64_t remaining_in_partition = -1;  // PER PARTITION LIMIT left in that partition
};

// Serialises and signs. `secret` is the node secret (any length, >= 16 bytes).
std::string encode_paging_state(const PagingState& state, std::string_view secret);

// Verifies and parses. Anything that was not produced by encode_paging_state
// with the same secret is Invalid "Invalid paging state".
Result<PagingState> decode_paging_state(std::string_view bytes, std::string_view secret);

// A digest identifying a statement and its bound values (SHA-256, 32 bytes).
// `parts` are concatenated with length prefixes, so part boundaries count.
class Fingerprint {
  public:
    void add(std::string_view part);
    void add_int(int64_t v);
    std::string finish() const;

  private:
    std::string buf_;
};

// HMAC-SHA256 of `data` under `key` (32 bytes).
std::string hmac_sha256(std::string_view key, std::string_view data);

// `n` cryptographically random bytes (the node secret).
std::string random_bytes(size_t n);

}  // namespace tessel::query
