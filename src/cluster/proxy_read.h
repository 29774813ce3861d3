// RemoteStream: a partition slice read from replicas on other nodes, chunk
// by chunk (StorageProxy's reads). Each chunk comes from the data replica
// and, at levels above ONE, is checked against the other replicas' digests;
// a mismatch repairs the chunk's range on every replica asked (blocking read
// repair, as in Cassandra 4) and reads the chunk again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cluster/messages.h"
#include "cluster/replica.h"

namespace tessel::cluster {

class StorageProxy;

class RemoteStream final : public PartitionStream {
  public:
    // `targets`: the data replica first, then the digest replicas.
    RemoteStream(StorageProxy* proxy, ReadCommand command, std::vector<std::string> targets,
                 int block_for, const RequestOptions& options);

    // Starts from rows already fetched (a scan's first rows of the
    // partition, read with a slice that starts where this one does): those
    // the slice admits are returned first, later chunks follow them.
    void seed(std::optional<storage::Row> static_row, std::vector<storage::Row> rows,
              bool exhausted);

    const std::string& partition_key() const override { return command_.partition_key; }
    const std::optional<storage::Row>& static_row() const override { return static_row_; }
    bool next(storage::Row* out) override;
    Status status() const override { return status_; }
    uint64_t tombstones_scanned() const override { return tombstones_; }
    bool needs_fetch() const override;
    Task<Status> fetch() override;

  private:
    Task<Result<ReadResponse>> ask(const std::string& host, ReadCommand command);
    Task<Result<ReadResponse>> fetch_chunk(bool check);
    void advance_slice();

    StorageProxy* proxy_;
    ReadCommand command_;
    std::vector<std::string> targets_;
    int block_for_;
    RequestOptions options_;
    std::optional<storage::Row> static_row_;
    std::vector<storage::Row> rows_;
    size_t pos_ = 0;
    bool first_ = true;
    bool exhausted_ = false;
    std::string last_;
    uint64_t tombstones_ = 0;
    Status status_;
};

}  // namespace tessel::cluster
