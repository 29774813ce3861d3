// Streaming a table's key range between nodes in one process (each with its
// own store in a temporary directory and messaging on 127.0.0.N): what
// arrives, what is kept, who may coordinate, failures that leave no files
// behind, dropping a range, the outbound throughput limit and the counters.
#include "cluster/streaming.h"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "storage/storage_test_util.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

using namespace std::chrono_literals;
using namespace storage::testing;
using storage::KeyRange;
using storage::PartitionMutation;
using storage::RecordRange;
using Clock = std::chrono::steady_clock;

constexpr int64_t kNow = 1'700'000'000;

std::string host(int n) {
    std::string id(16, '\0');
    id[0] = static_cast<char>(0xc0);
    id[15] = static_cast<char>(n);
    return id;
}

KeyRange keys(std::string start, std::string end) {
    KeyRange r;
    r.start_key = std::move(start);
    r.end_key = std::move(end);
    r.end_inclusive = false;
    return r;
}

RecordRange records(std::string start, std::string end) {
    RecordRange r;
    r.start = std::move(start);
    r.end = std::move(end);
    return r;
}

// Files and directories under `dir` (recursively).
size_t entries_under(const std::string& dir) {
    std::error_code ec;
    size_t n = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
        ++n;
    return n;
}

// Bytes of the regular files under `dir`.
uint64_t bytes_under(const std::string& dir) {
    std::error_code ec;
    uint64_t n = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code size_ec;
        if (it->is_regular_file(size_ec)) n += it->file_size(size_ec);
    }
    return n;
}

bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds timeout = 20s) {
    const auto until = Clock::now() + timeout;
    while (Clock::now() < until) {
        if (cond()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return cond();
}

struct Node {
    TempDir dir;
    std::unique_ptr<storage::Store> store;
    Membership membership;
    std::unique_ptr<MessagingService> messaging;
    std::unique_ptr<StreamingService> streaming;

    std::string streaming_dir() const { return dir.path() + "/streaming"; }
};

class StreamingTest : public ::testing::Test {
  protected:
    void TearDown() override {
        for (auto& n : nodes_) {
            n->streaming.reset();
            n->messaging->stop();
            n->store.reset();
        }
    }

    // `count` nodes with table "t"; each sends at most `megabits` per second.
    void start(int count, uint64_t megabits = 0) {
        std::map<std::string, NodeInfo> infos;
        for (int n = 1; n <= count; ++n) {
            auto node = std::make_unique<Node>();
            storage::StoreOptions so;
            so.clock = [] { return kNow; };
            so.stats_flush_period_ms = 0;
            auto store = storage::Store::open(node->dir.path() + "/store", so);
            ASSERT_TRUE(store.is_ok()) << store.status().to_string();
            node->store = std::move(store).value();
            ASSERT_TRUE(node->store->create_table("t").is_ok());
            MessagingOptions mo;
            mo.listen_address = "127.0.0." + std::to_string(n);
            mo.storage_port = 0;
            mo.cluster_name = "streaming-test";
            mo.host_id = host(n);
            mo.threads = 2;
            mo.heartbeat_interval_ms = 100;
            mo.failure_timeout_ms = 60000;
            mo.reconnect_backoff_min_ms = 20;
            mo.reconnect_backoff_max_ms = 100;
            node->messaging = std::make_unique<MessagingService>(mo);
            StreamingOptions so2;
            so2.self = host(n);
            so2.directory = node->streaming_dir();
            so2.throughput_megabits_per_sec = megabits;
            so2.chunk_bytes = 64 << 10;  // several chunks per file
            so2.max_file_bytes = 1 << 20;
            so2.message_timeout_ms = 10000;
            so2.session_idle_timeout_ms = 1000;
            node->streaming = std::make_unique<StreamingService>(
                so2, &node->membership, node->messaging.get(), node->store.get());
            ASSERT_TRUE(node->streaming->register_handlers(*node->messaging).is_ok());
            ASSERT_TRUE(node->messaging->start().is_ok());
            NodeInfo info;
            info.host_id = host(n);
            info.listen_address = mo.listen_address;
            info.storage_port = node->messaging->port();
            infos[host(n)] = info;
            nodes_.push_back(std::move(node));
        }
        std::map<std::string, AliveInfo> alive;
        for (const auto& [id, _] : infos)
            alive[id] = AliveInfo{};
        for (auto& node : nodes_)
            node->membership.set_records(infos, alive);
    }

    Node& node(int n) { return *nodes_.at(static_cast<size_t>(n - 1)); }

    void apply(int n, const PartitionMutation& m) {
        auto st = node(n).store->apply("t", m);
        ASSERT_TRUE(st.is_ok()) << st.to_string();
    }

    Status stream(int via, int from, int to, const RecordRange& range,
                  std::chrono::milliseconds timeout = 30s) {
        const auto deadline = Clock::now() + timeout;
        return sync_wait([&] {
            return node(via).streaming->stream(host(from), host(to), "t", range, deadline);
        });
    }

    Status drop(int via, int on, const RecordRange& range) {
        const auto deadline = Clock::now() + 10s;
        return sync_wait(
            [&] { return node(via).streaming->drop_range(host(on), "t", range, deadline); });
    }

    std::string digest(int n, const KeyRange& r) {
        auto d = node(n).store->digest_ranges("t", r, {});
        EXPECT_TRUE(d.is_ok());
        return d.is_ok() ? d->digests.at(0) : "";
    }

    std::vector<storage::Row> rows(int n, const std::string& pk, int64_t now = kNow) {
        return read_rows(*node(n).store, "t", pk, now);
    }

    std::optional<storage::Row> static_row(int n, const std::string& pk) {
        auto reader = node(n).store->read_partition("t", pk, {}, kNow);
        EXPECT_TRUE(reader.is_ok());
        if (!reader.is_ok()) return std::nullopt;
        return (*reader)->static_row();
    }

    // `count` rows of 4,000 incompressible bytes in partitions p1000...
    void write_large(int n, int count) {
        uint32_t seed = 12345;
        for (int i = 0; i < count; ++i) {
            std::string value(4000, '\0');
            for (char& c : value) {
                seed = seed * 1664525u + 1013904223u;
                c = static_cast<char>(seed >> 24);
            }
            apply(n, write_row("p" + std::to_string(1000 + i), "x", row({live(1, value, 5)}, 5)));
        }
    }

    std::vector<std::unique_ptr<Node>> nodes_;
};

TEST_F(StreamingTest, TheRangeArrivesWithStaticRowsTombstonesAndTtlsAndNothingElse) {
    start(2);
    const int32_t now32 = static_cast<int32_t>(kNow);
    for (const char* pk : {"a1", "b1", "b2", "c1"}) {
        apply(1, write_row(pk, "x",
                           row({live(1, pk, 5), live(2, "ttl", 5, "", 100, now32 + 100)}, 5)));
        apply(1, write_row(pk, "y", row({live(1, "y", 5)}, 5)));
    }
    PartitionMutation with_static;
    with_static.partition_key = "b1";
    with_static.static_row = row({live(3, "static", 6)});
    apply(1, with_static);
    apply(1, delete_row("b1", "y", 7, now32));
    apply(1, delete_range("b2", {"x", true}, {"x", true}, 8, now32));
    apply(1, delete_partition("b3", 9, now32));  // only a tombstone in the range

    ASSERT_TRUE(stream(1, 1, 2, records("b", "c")).is_ok());

    EXPECT_EQ(digest(2, keys("b", "c")), digest(1, keys("b", "c")));
    EXPECT_EQ(clusterings(rows(2, "b1")), (std::vector<std::string>{"x"}));
    EXPECT_EQ(clusterings(rows(2, "b2")), (std::vector<std::string>{"y"}));
    const auto s = static_row(2, "b1");
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(value_of(*s, 3), "static");
    ASSERT_EQ(rows(2, "b1").size(), 1u);
    EXPECT_EQ(value_of(rows(2, "b1")[0], 2), "ttl");
    // Past its TTL the streamed cell expires on the target too.
    const auto later = rows(2, "b1", kNow + 200);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_FALSE(value_of(later[0], 2));
    // Outside the range: not copied.
    EXPECT_TRUE(rows(2, "a1").empty());
    EXPECT_TRUE(rows(2, "c1").empty());
    // The streamed partition tombstone still hides older data written later.
    apply(2, write_row("b3", "z", row({live(1, "old", 4)}, 4)));
    EXPECT_TRUE(rows(2, "b3").empty());

    const StreamingStats src = node(1).streaming->stats();
    const StreamingStats dst = node(2).streaming->stats();
    EXPECT_EQ(src.streams_started, 1u);
    EXPECT_EQ(src.streams_done, 1u);
    EXPECT_EQ(src.streams_failed, 0u);
    EXPECT_GT(src.bytes_sent, 0u);
    EXPECT_EQ(dst.bytes_received, src.bytes_sent);
    EXPECT_EQ(dst.files_ingested, 2u);  // the table's records and their statistics
    EXPECT_EQ(dst.sessions_received, 1u);
    EXPECT_EQ(dst.sessions_active, 0u);
    EXPECT_EQ(dst.streams_started, 0u);
    // Nothing is left in either node's streaming directory.
    EXPECT_EQ(entries_under(node(1).streaming_dir()), 0u);
    EXPECT_EQ(entries_under(node(2).streaming_dir()), 0u);
}

TEST_F(StreamingTest, TheTargetKeepsItsNewerVersionsAndTheTargetMayCoordinate) {
    start(2);
    apply(1, write_row("k", "x", row({live(1, "old", 5), live(2, "kept", 5)}, 5)));
    apply(1, write_row("k", "y", row({live(1, "deleted later", 5)}, 5)));
    apply(1, write_row("k", "z", row({live(1, "source only", 5)}, 5)));
    // Writes the target took while the range was being moved.
    apply(2, write_row("k", "x", row({live(1, "newer", 9)})));
    apply(2, delete_row("k", "y", 9, static_cast<int32_t>(kNow)));

    ASSERT_TRUE(stream(2, 1, 2, records("", "")).is_ok());  // the whole table

    const auto got = rows(2, "k");
    ASSERT_EQ(clusterings(got), (std::vector<std::string>{"x", "z"}));
    EXPECT_EQ(value_of(got[0], 1), "newer");
    EXPECT_EQ(value_of(got[0], 2), "kept");
    EXPECT_EQ(value_of(got[1], 1), "source only");
    EXPECT_EQ(node(2).streaming->stats().streams_done, 1u);
    EXPECT_EQ(node(1).streaming->stats().streams_started, 0u);
    // Streaming again changes nothing: ingestion merges.
    const std::string before = digest(2, {});
    ASSERT_TRUE(stream(2, 1, 2, records("", "")).is_ok());
    EXPECT_EQ(digest(2, {}), before);
}

TEST_F(StreamingTest, AThirdNodeCoordinatesAndEmptyRangesAreFine) {
    start(3);
    apply(1, write_row("m1", "x", row({live(1, "v", 5)}, 5)));
    apply(1, write_row("q1", "x", row({live(1, "outside", 5)}, 5)));
    ASSERT_TRUE(stream(3, 1, 2, records("m", "n")).is_ok());
    ASSERT_EQ(rows(2, "m1").size(), 1u);
    EXPECT_EQ(value_of(rows(2, "m1")[0], 1), "v");
    EXPECT_TRUE(rows(2, "q1").empty());
    EXPECT_TRUE(rows(3, "m1").empty());  // the coordinator holds nothing

    // A range holding nothing streams nothing, successfully.
    ASSERT_TRUE(stream(3, 1, 2, records("e", "f")).is_ok());
    const StreamingStats s = node(3).streaming->stats();
    EXPECT_EQ(s.streams_started, 2u);
    EXPECT_EQ(s.streams_done, 2u);
    EXPECT_EQ(s.bytes_sent, 0u);
    EXPECT_EQ(node(2).streaming->stats().sessions_received, 1u);
    for (int n = 1; n <= 3; ++n)
        EXPECT_EQ(entries_under(node(n).streaming_dir()), 0u) << n;
}

TEST_F(StreamingTest, AnUnreachableSourceOrABadRequestFails) {
    start(3);
    apply(1, write_row("k", "x", row({live(1, "v", 5)}, 5)));
    node(1).messaging->stop();
    Status st = stream(3, 1, 2, records("", ""), 5s);
    EXPECT_FALSE(st.is_ok());
    EXPECT_TRUE(rows(2, "k").empty());
    // An unknown host, the same node twice, a range ending before it starts.
    EXPECT_FALSE(stream(3, 9, 2, records("", "")).is_ok());
    EXPECT_FALSE(stream(3, 2, 9, records("", "")).is_ok());
    EXPECT_EQ(stream(3, 2, 2, records("", "")).code(), ErrorCode::kInvalid);
    EXPECT_EQ(stream(3, 2, 3, records("b", "a")).code(), ErrorCode::kInvalid);
    const StreamingStats s = node(3).streaming->stats();
    EXPECT_EQ(s.streams_started, 5u);
    EXPECT_EQ(s.streams_failed, 5u);
    EXPECT_EQ(s.streams_done, 0u);
    EXPECT_EQ(entries_under(node(2).streaming_dir()), 0u);
    EXPECT_EQ(entries_under(node(3).streaming_dir()), 0u);
}

TEST_F(StreamingTest, ATargetThatCannotIngestFailsTheStreamAndKeepsNoFiles) {
    start(2);
    write_large(1, 100);
    ASSERT_TRUE(node(2).store->drop_table("t").is_ok());
    const Status st = stream(1, 1, 2, records("", ""));
    ASSERT_FALSE(st.is_ok());
    EXPECT_NE(st.message().find("unknown table"), std::string::npos) << st.to_string();
    EXPECT_EQ(node(1).streaming->stats().streams_failed, 1u);
    EXPECT_EQ(entries_under(node(1).streaming_dir()), 0u);
    EXPECT_EQ(entries_under(node(2).streaming_dir()), 0u);
}

TEST_F(StreamingTest, ATargetLostMidStreamFailsItAndBothSidesRemoveTheirFiles) {
    start(2, /*megabits=*/8);  // 1 MB/s: 4 MB take seconds
    write_large(1, 1000);
    std::promise<Status> result;
    auto done = result.get_future();
    std::thread t([&] { result.set_value(stream(1, 1, 2, records("", ""), 60s)); });
    // Once chunks are arriving, the target goes away.
    const bool arriving = eventually([&] { return bytes_under(node(2).streaming_dir()) > 0; });
    node(2).messaging->stop();
    t.join();
    ASSERT_TRUE(arriving);
    const Status st = done.get();
    EXPECT_FALSE(st.is_ok());
    EXPECT_EQ(node(1).streaming->stats().streams_failed, 1u);
    EXPECT_EQ(entries_under(node(1).streaming_dir()), 0u);
    // The target drops the session whose source went silent.
    EXPECT_TRUE(eventually([&] { return entries_under(node(2).streaming_dir()) == 0; }));
    EXPECT_EQ(node(2).streaming->stats().sessions_active, 0u);
    EXPECT_EQ(node(2).streaming->stats().files_ingested, 0u);
}

TEST_F(StreamingTest, ASourceShuttingDownEndsItsStreams) {
    start(2, /*megabits=*/8);
    write_large(1, 1000);
    std::promise<Status> result;
    auto done = result.get_future();
    std::thread t([&] { result.set_value(stream(2, 1, 2, records("", ""), 60s)); });
    const bool arriving = eventually([&] { return bytes_under(node(2).streaming_dir()) > 0; });
    node(1).streaming.reset();  // waits for the stream it sends, which stops
    t.join();
    ASSERT_TRUE(arriving);
    EXPECT_FALSE(done.get().is_ok());
    EXPECT_EQ(entries_under(node(1).streaming_dir()), 0u);
    EXPECT_TRUE(eventually([&] { return entries_under(node(2).streaming_dir()) == 0; }));
    EXPECT_EQ(node(2).streaming->stats().streams_failed, 1u);
}

TEST_F(StreamingTest, TheTargetRefusesCorruptOrMisplacedChunksAndDropsTheSession) {
    start(2);
    const PeerAddress target = node(2).messaging->address();
    auto ask = [&](StreamingVerb verb, std::string payload) {
        return sync_wait([&] {
            return node(1).messaging->request(target, static_cast<Verb>(verb), std::move(payload),
                                              Clock::now() + 10s);
        });
    };
    auto open = [&](const std::string& session) {
        StreamManifest m;
        m.session_id = session;
        m.table_id = "t";
        m.files.push_back({false, 5});
        return ask(StreamingVerb::kStreamFiles, encode(m));
    };
    auto chunk = [&](const std::string& session, uint64_t offset, const std::string& data,
                     bool corrupt = false) {
        StreamChunk c;
        c.session_id = session;
        c.offset = offset;
        c.data = data;
        c.checksum = XXH3_64bits(data.data(), data.size()) + (corrupt ? 1 : 0);
        return ask(StreamingVerb::kStreamChunk, encode(c));
    };
    auto end = [&](const std::string& session, uint64_t checksum) {
        StreamEnd e;
        e.session_id = session;
        e.commit = true;
        e.checksums = {checksum};
        return ask(StreamingVerb::kStreamEnd, encode(e));
    };
    const std::string dir = node(2).streaming_dir();

    ASSERT_TRUE(open("a0").is_ok());
    EXPECT_TRUE(std::filesystem::is_directory(dir + "/in-a0"));
    auto corrupt = chunk("a0", 0, "hello", /*corrupt=*/true);
    ASSERT_FALSE(corrupt.is_ok());
    EXPECT_EQ(corrupt.status().code(), ErrorCode::kProtocolError);
    EXPECT_EQ(entries_under(dir), 0u);
    EXPECT_FALSE(chunk("a0", 0, "hello").is_ok());  // the session is gone

    ASSERT_TRUE(open("a1").is_ok());
    ASSERT_TRUE(chunk("a1", 0, "he").is_ok());
    EXPECT_FALSE(chunk("a1", 3, "llo").is_ok());  // a gap
    EXPECT_EQ(entries_under(dir), 0u);

    ASSERT_TRUE(open("a2").is_ok());
    EXPECT_FALSE(chunk("a2", 0, "hello world").is_ok());  // past the announced size
    EXPECT_EQ(entries_under(dir), 0u);

    ASSERT_TRUE(open("a3").is_ok());
    ASSERT_TRUE(chunk("a3", 0, "hello").is_ok());
    EXPECT_FALSE(end("a3", XXH3_64bits("hellO", 5)).is_ok());
    EXPECT_EQ(entries_under(dir), 0u);

    EXPECT_FALSE(end("a4", 0).is_ok());                                   // no such session
    EXPECT_EQ(open("../a5").status().code(), ErrorCode::kProtocolError);  // not a session id
    EXPECT_EQ(entries_under(dir), 0u);
    const StreamingStats s = node(2).streaming->stats();
    EXPECT_EQ(s.sessions_received, 4u);
    EXPECT_EQ(s.sessions_active, 0u);
    EXPECT_EQ(s.files_ingested, 0u);
}

TEST_F(StreamingTest, DropRangeRemovesOnlyTheRangeHereOrElsewhere) {
    start(2);
    for (int n = 1; n <= 2; ++n) {
        for (const char* pk : {"a1", "b1", "b2", "c1"})
            apply(n, write_row(pk, "x", row({live(1, "v", 5)}, 5)));
    }
    ASSERT_TRUE(drop(1, 2, records("b", "c")).is_ok());  // remote
    ASSERT_TRUE(drop(1, 1, records("c", "")).is_ok());   // this node
    for (const char* pk : {"a1", "c1"})
        EXPECT_EQ(rows(2, pk).size(), 1u) << pk;
    for (const char* pk : {"b1", "b2"})
        EXPECT_TRUE(rows(2, pk).empty()) << pk;
    for (const char* pk : {"a1", "b1", "b2"})
        EXPECT_EQ(rows(1, pk).size(), 1u) << pk;
    EXPECT_TRUE(rows(1, "c1").empty());
    EXPECT_EQ(node(1).streaming->stats().ranges_dropped, 1u);
    EXPECT_EQ(node(2).streaming->stats().ranges_dropped, 1u);
    EXPECT_FALSE(drop(1, 2, records("b", "a")).is_ok());
    EXPECT_FALSE(drop(1, 9, records("b", "c")).is_ok());
}

TEST_F(StreamingTest, TheThroughputLimitSlowsAStream) {
    start(2, /*megabits=*/16);  // 2,000,000 bytes/s
    write_large(1, 1000);       // about 4 MB
    const auto began = Clock::now();
    ASSERT_TRUE(stream(2, 1, 2, records("", ""), 120s).is_ok());
    const double elapsed = std::chrono::duration<double>(Clock::now() - began).count();
    const uint64_t sent = node(1).streaming->stats().bytes_sent;
    ASSERT_GT(sent, 3'000'000u);
    // The first chunk (the bucket) goes at once; the rest at the rate at most.
    const double floor = static_cast<double>(sent - (64 << 10)) / 2'000'000.0;
    EXPECT_GE(elapsed, floor * 0.8) << "sent " << sent << " bytes";
    EXPECT_EQ(rows(2, "p1999").size(), 1u);
}

TEST(StreamingServiceTest, LeftOverDirectoriesAreRemovedWhenTheServiceStarts) {
    TempDir dir;
    const std::string work = dir.path() + "/streaming";
    std::filesystem::create_directories(work + "/in-0123/x");
    std::filesystem::create_directories(work + "/out-4567");
    { std::ofstream(work + "/in-0123/x/table-000000.sst") << "partial"; }
    auto store = storage::Store::open(dir.path() + "/store");
    ASSERT_TRUE(store.is_ok());
    Membership membership;
    MessagingOptions mo;
    mo.listen_address = "127.0.0.1";
    mo.storage_port = 0;
    mo.host_id = host(1);
    MessagingService messaging(mo);
    StreamingOptions so;
    so.self = host(1);
    so.directory = work;
    {
        StreamingService streaming(so, &membership, &messaging, store->get());
        EXPECT_TRUE(std::filesystem::is_directory(work));
        EXPECT_EQ(entries_under(work), 0u);
    }
    store->reset();
}

TEST(StreamingMessagesTest, RoundTripAndRefuseMalformedInput) {
    StreamManifest m;
    m.session_id = "abc";
    m.table_id = "t";
    m.files.push_back({false, 10});
    m.files.push_back({true, 20});
    StreamManifest m2;
    ASSERT_TRUE(decode(encode(m), &m2).is_ok());
    EXPECT_EQ(m2.session_id, "abc");
    ASSERT_EQ(m2.files.size(), 2u);
    EXPECT_TRUE(m2.files[1].stats);
    EXPECT_EQ(m2.files[1].size, 20u);

    StreamChunk c;
    c.session_id = "abc";
    c.file = 1;
    c.offset = 1 << 20;
    c.checksum = 42;
    c.data = std::string(1000, 'x');
    const std::string bytes = encode(c);
    StreamChunk c2;
    ASSERT_TRUE(decode(bytes, &c2).is_ok());
    EXPECT_EQ(c2.offset, 1u << 20);
    EXPECT_EQ(c2.data, c.data);
    for (size_t cut : {size_t{0}, size_t{1}, bytes.size() - 1}) {
        StreamChunk bad;
        EXPECT_EQ(decode(bytes.substr(0, cut), &bad).code(), ErrorCode::kProtocolError) << cut;
    }
    StreamEnd e;
    e.session_id = "abc";
    e.commit = true;
    e.checksums = {1, 2, 3};
    StreamEnd e2;
    ASSERT_TRUE(decode(encode(e), &e2).is_ok());
    EXPECT_TRUE(e2.commit);
    EXPECT_EQ(e2.checksums, e.checksums);
    StreamRangeRequest r;
    r.table_id = "t";
    r.range = records("a", "b");
    r.target = host(2);
    r.timeout_ms = 5000;
    StreamRangeRequest r2;
    ASSERT_TRUE(decode(encode(r), &r2).is_ok());
    EXPECT_EQ(r2.range.end, "b");
    EXPECT_EQ(r2.target, host(2));
    EXPECT_EQ(r2.timeout_ms, 5000u);
    DropRangeRequest d2;
    EXPECT_FALSE(decode(encode(r), &d2).is_ok());  // trailing bytes
}

}  // namespace
}  // namespace tessel::cluster
