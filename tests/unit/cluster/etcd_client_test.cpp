// EtcdClient against a real etcd: keys, transactions, failover, unreachable
// and misbehaving servers.
#include "cluster/etcd_client.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <thread>

#include "cluster/etcd_process.h"

namespace tessel::cluster {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

class EtcdClientTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        etcd_ = new test::EtcdProcess();
        std::string error;
        if (!etcd_->start(&error)) {
            delete etcd_;
            etcd_ = nullptr;
            FAIL() << error;
        }
    }
    static void TearDownTestSuite() {
        delete etcd_;
        etcd_ = nullptr;
    }
    void SetUp() override { ASSERT_NE(etcd_, nullptr) << "etcd did not start"; }

    static EtcdClient client(EtcdOptions options = {}) {
        if (options.endpoints.empty()) options.endpoints = {etcd_->endpoint()};
        auto c = EtcdClient::create(std::move(options));
        EXPECT_TRUE(c.is_ok()) << c.status().to_string();
        return std::move(c).value();
    }
    // A key prefix no other test uses.
    static std::string prefix() {
        return std::string("test/") +
               ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    }

    static test::EtcdProcess* etcd_;
};
test::EtcdProcess* EtcdClientTest::etcd_ = nullptr;

TEST_F(EtcdClientTest, PutGetPrefixErase) {
    auto c = client();
    const std::string p = prefix();
    auto r1 = c.put(p + "a", "1");
    ASSERT_TRUE(r1.is_ok()) << r1.status().to_string();
    auto r2 = c.put(p + "b", "2");
    ASSERT_TRUE(r2.is_ok());
    EXPECT_GT(*r2, *r1);
    auto r3 = c.put(p + "a", "one");
    ASSERT_TRUE(r3.is_ok());

    auto got = c.get(p + "a");
    ASSERT_TRUE(got.is_ok()) << got.status().to_string();
    ASSERT_EQ(got->kvs.size(), 1u);
    EXPECT_EQ(got->kvs[0], (KeyValue{p + "a", "one", *r1, *r3, 2, 0}));
    EXPECT_GE(got->revision, *r3);

    auto missing = c.get(p + "zz");
    ASSERT_TRUE(missing.is_ok());
    EXPECT_TRUE(missing->kvs.empty());

    ASSERT_TRUE(c.put(p + "c", "3").is_ok());
    ASSERT_TRUE(
        c.put(prefix().substr(0, p.size() - 1) + "0", "outside").is_ok());  // "...0" > ".../"
    auto all = c.get_prefix(p);
    ASSERT_TRUE(all.is_ok()) << all.status().to_string();
    ASSERT_EQ(all->kvs.size(), 3u);
    EXPECT_EQ(all->kvs[0].value, "one");
    EXPECT_EQ(all->kvs[1].value, "2");
    EXPECT_EQ(all->kvs[2].value, "3");

    // A read at an older revision sees the older values.
    auto old = c.get_prefix(p, *r2);
    ASSERT_TRUE(old.is_ok()) << old.status().to_string();
    ASSERT_EQ(old->kvs.size(), 2u);
    EXPECT_EQ(old->kvs[0].value, "1");
    EXPECT_EQ(old->revision, *r2);

    auto erased = c.erase(p + "b");
    ASSERT_TRUE(erased.is_ok());
    EXPECT_GT(*erased, *r3);
    EXPECT_TRUE(c.get(p + "b")->kvs.empty());
    ASSERT_TRUE(c.erase_prefix(p).is_ok());
    EXPECT_TRUE(c.get_prefix(p)->kvs.empty());
    EXPECT_EQ(c.get(prefix().substr(0, p.size() - 1) + "0")->kvs.size(), 1u);
}

TEST_F(EtcdClientTest, BinaryKeysAndValues) {
    auto c = client();
    const std::string p = prefix() + std::string("\0\xff", 2);
    const std::string value("\0\x01\xfe\xff{\"}", 7);
    ASSERT_TRUE(c.put(p + std::string("\xff\xff", 2), value).is_ok());
    ASSERT_TRUE(c.put(p + std::string("\0", 1), "").is_ok());
    auto all = c.get_prefix(p);
    ASSERT_TRUE(all.is_ok());
    ASSERT_EQ(all->kvs.size(), 2u);
    EXPECT_EQ(all->kvs[0].key, p + std::string("\0", 1));
    EXPECT_EQ(all->kvs[0].value, "");
    EXPECT_EQ(all->kvs[1].value, value);
}

TEST_F(EtcdClientTest, LargePrefixIsReadInPagesAtOneRevision) {
    EtcdOptions options;
    options.range_page_size = 3;
    auto c = client(options);
    const std::string p = prefix();
    for (int i = 0; i < 10; ++i)
        ASSERT_TRUE(c.put(p + std::to_string(i), std::to_string(i)).is_ok());
    auto all = c.get_prefix(p);
    ASSERT_TRUE(all.is_ok()) << all.status().to_string();
    ASSERT_EQ(all->kvs.size(), 10u);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(all->kvs[i].value, std::to_string(i));
    // Exactly a multiple of the page size.
    ASSERT_TRUE(c.erase(p + "9").is_ok());
    EXPECT_EQ(c.get_prefix(p)->kvs.size(), 9u);
}

TEST_F(EtcdClientTest, TxnSuccessAndFailureBranches) {
    auto c = client();
    const std::string k = prefix() + "k";
    // Create if absent: only the first succeeds.
    auto created = c.txn({Compare::absent(k)}, {TxnOp::put(k, "v1")}, {TxnOp::range(k)});
    ASSERT_TRUE(created.is_ok()) << created.status().to_string();
    EXPECT_TRUE(created->succeeded);
    EXPECT_TRUE(created->ranges.empty());
    auto again = c.txn({Compare::absent(k)}, {TxnOp::put(k, "v2")}, {TxnOp::range(k)});
    ASSERT_TRUE(again.is_ok());
    EXPECT_FALSE(again->succeeded);
    ASSERT_EQ(again->ranges.size(), 1u);
    ASSERT_EQ(again->ranges[0].kvs.size(), 1u);
    EXPECT_EQ(again->ranges[0].kvs[0].value, "v1");
    EXPECT_EQ(again->revision, created->revision);  // nothing written

    using Op = Compare::Op;
    auto check = [&](const Compare& cmp, bool expected) {
        auto r = c.txn({cmp}, {}, {});
        ASSERT_TRUE(r.is_ok()) << r.status().to_string();
        EXPECT_EQ(r->succeeded, expected);
    };
    check(Compare::value_is(k, Op::kEqual, "v1"), true);
    check(Compare::value_is(k, Op::kNotEqual, "v1"), false);
    check(Compare::value_is(k, Op::kGreater, "v0"), true);
    check(Compare::value_is(k, Op::kLess, "v0"), false);
    check(Compare::version_is(k, Op::kEqual, 1), true);
    check(Compare::version_is(k, Op::kGreater, 1), false);
    check(Compare::create_revision_is(k, Op::kEqual, created->revision), true);
    check(Compare::mod_revision_is(k, Op::kLess, created->revision + 1), true);
    check(Compare::mod_revision_is(k, Op::kNotEqual, created->revision), false);

    // Several ops, ranges in op order, prefix delete.
    const std::string p = prefix();
    auto multi = c.txn({Compare::value_is(k, Op::kEqual, "v1")},
                       {TxnOp::put(p + "x", "X"), TxnOp::range(k), TxnOp::put(p + "y", "Y"),
                        TxnOp::range_prefix(p)},
                       {});
    ASSERT_TRUE(multi.is_ok()) << multi.status().to_string();
    ASSERT_TRUE(multi->succeeded);
    ASSERT_EQ(multi->ranges.size(), 2u);
    EXPECT_EQ(multi->ranges[0].kvs.size(), 1u);
    EXPECT_EQ(multi->ranges[1].kvs.size(), 3u);  // k, x, y: the puts before it are visible
    auto wiped = c.txn({}, {TxnOp::erase_prefix(p)}, {});
    ASSERT_TRUE(wiped.is_ok());
    EXPECT_TRUE(wiped->succeeded);
    EXPECT_TRUE(c.get_prefix(p)->kvs.empty());
}

TEST_F(EtcdClientTest, ConcurrentCompareAndSwapHasOneWinner) {
    auto c = client();
    const std::string k = prefix() + "counter";
    ASSERT_TRUE(c.put(k, "start").is_ok());
    for (int round = 0; round < 20; ++round) {
        auto current = c.get(k);
        ASSERT_TRUE(current.is_ok());
        const int64_t seen = current->kvs.at(0).mod_revision;
        std::latch go(2);
        std::atomic<int> wins{0}, errors{0};
        std::string winner_value[2];
        bool won[2] = {false, false};
        auto contender = [&](int id) {
            go.arrive_and_wait();
            auto r = c.txn({Compare::mod_revision_is(k, Compare::Op::kEqual, seen)},
                           {TxnOp::put(k, "thread" + std::to_string(id))}, {});
            if (!r.is_ok()) {
                ++errors;
            } else if (r->succeeded) {
                ++wins;
                won[id] = true;
            }
        };
        std::thread a(contender, 0), b(contender, 1);
        a.join();
        b.join();
        ASSERT_EQ(errors.load(), 0);
        ASSERT_EQ(wins.load(), 1) << "round " << round;
        EXPECT_EQ(c.get(k)->kvs.at(0).value, won[0] ? "thread0" : "thread1");
    }
}

TEST_F(EtcdClientTest, PutWithUnknownLeaseCarriesEtcdsMessage) {
    auto c = client();
    auto r = c.put(prefix() + "k", "v", 0x7fffabcd);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kServerError);
    EXPECT_EQ(r.status().message(),
              "etcd at " + etcd_->endpoint() +
                  " refused /v3/kv/put: etcdserver: requested lease not found");
}

TEST_F(EtcdClientTest, FailsOverFromADeadEndpoint) {
    const std::string dead = "http://127.0.0.1:" + std::to_string(test::EtcdProcess::free_port());
    EtcdOptions options;
    options.endpoints = {dead, etcd_->endpoint()};
    auto c = client(options);
    auto r = c.put(prefix() + "k", "v");
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    auto got = c.get(prefix() + "k");
    ASSERT_TRUE(got.is_ok());
    EXPECT_EQ(got->kvs.size(), 1u);
    auto txn = c.txn({Compare::absent(prefix() + "k")}, {}, {});
    ASSERT_TRUE(txn.is_ok());
    EXPECT_FALSE(txn->succeeded);
}

TEST_F(EtcdClientTest, UnreachableEtcdIsAClearErrorWithinTheTimeout) {
    const std::string dead1 = "http://127.0.0.1:" + std::to_string(test::EtcdProcess::free_port());
    const std::string dead2 = "http://127.0.0.1:" + std::to_string(test::EtcdProcess::free_port());
    EtcdOptions options;
    options.endpoints = {dead1};
    auto one = client(options).get("k");
    ASSERT_FALSE(one.is_ok());
    EXPECT_EQ(one.status().code(), ErrorCode::kServerError);
    EXPECT_EQ(one.status().message(), "etcd is unreachable at " + dead1 + ": Connection refused");

    options.endpoints = {dead1, dead2};
    auto two = client(options).put("k", "v");
    ASSERT_FALSE(two.is_ok());
    EXPECT_EQ(two.status().message(), "etcd is unreachable at " + dead1 +
                                          ": Connection refused; at " + dead2 +
                                          ": Connection refused");
}

TEST_F(EtcdClientTest, PausedEtcdTimesOut) {
    EtcdOptions options;
    options.request_timeout_ms = 400;
    auto c = client(options);
    ASSERT_TRUE(c.put(prefix() + "k", "v").is_ok());  // connection open before the pause
    etcd_->pause();
    auto start = Clock::now();
    auto r = c.get(prefix() + "k");
    auto took = Clock::now() - start;
    auto w = c.put(prefix() + "k", "w");
    etcd_->resume();
    ASSERT_FALSE(r.is_ok());
    EXPECT_GE(took, milliseconds(350));
    EXPECT_LT(took, milliseconds(4000));  // not the default 5 s: the option counts
    EXPECT_EQ(r.status().message(),
              "etcd is unreachable at " + etcd_->endpoint() + ": no answer within 400 ms");
    ASSERT_FALSE(w.is_ok());
    EXPECT_NE(w.status().message().find("may or may not have been applied"), std::string::npos)
        << w.status().message();
    EXPECT_TRUE(c.get(prefix() + "k").is_ok());
}

TEST(EtcdClientOptions, AreChecked) {
    EXPECT_EQ(EtcdClient::create({}).status().code(), ErrorCode::kConfigError);
    EXPECT_FALSE(EtcdClient::create({{"127.0.0.1:2379"}}).is_ok());
    EtcdOptions zero;
    zero.endpoints = {"http://127.0.0.1:2379"};
    zero.request_timeout_ms = 0;
    EXPECT_FALSE(EtcdClient::create(zero).is_ok());
    auto ok = EtcdClient::create({{"http://127.0.0.1:2379/"}});
    ASSERT_TRUE(ok.is_ok());
    EXPECT_EQ(ok->options().endpoints[0], "http://127.0.0.1:2379");
}

// Answers every request on a loopback port with one canned HTTP response.
class CannedServer {
  public:
    explicit CannedServer(std::string response) : response_(std::move(response)) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len);
        ::listen(fd_, 16);
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~CannedServer() {
        stop_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        ::close(fd_);
        thread_.join();
    }
    std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

  private:
    void serve() {
        while (!stop_) {
            int conn = ::accept(fd_, nullptr, nullptr);
            if (conn < 0) return;
            std::string request;
            char buf[4096];
            while (request.find("\r\n\r\n") == std::string::npos) {
                ssize_t n = ::read(conn, buf, sizeof buf);
                if (n <= 0) break;
                request.append(buf, static_cast<size_t>(n));
            }
            (void)!::write(conn, response_.data(), response_.size());
            ::shutdown(conn, SHUT_WR);
            while (::read(conn, buf, sizeof buf) > 0) {
            }
            ::close(conn);
        }
    }
    std::string response_;
    int fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

std::string http_response(const std::string& body, int status = 200) {
    return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\n" +
           "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
           body;
}

TEST(EtcdClientMalformed, RepliesAreErrorsNotCrashes) {
    auto client_of = [](const CannedServer& server) {
        return EtcdClient::create({{server.endpoint()}}).value();
    };
    // Not a gateway reply at all: every call fails.
    for (const std::string body :
         {"", "{", "[]", "null", "\"text\"", "\xff\xfe{}", "{\"header\":{\"revision\":\"abc\"}}",
          "{\"header\":{\"revision\":[]}}", "{\"header\":\"x\"}"}) {
        CannedServer server(http_response(body));
        auto c = client_of(server);
        EXPECT_FALSE(c.get("a").is_ok()) << body;
        EXPECT_FALSE(c.get_prefix("a").is_ok()) << body;
        EXPECT_FALSE(c.put("a", "b").is_ok()) << body;
        EXPECT_FALSE(c.erase_prefix("a").is_ok()) << body;
        EXPECT_FALSE(c.txn({}, {TxnOp::range("a")}, {TxnOp::range("a")}).is_ok()) << body;
        EXPECT_FALSE(c.grant_lease(5).is_ok()) << body;
        auto k = c.keep_alive_once(1);
        if (k.is_ok()) {
            EXPECT_EQ(*k, 0) << body;  // a reply without TTL reads as "gone"
        }
    }
    // Range replies with bad contents.
    for (const std::string body :
         {"{\"header\":{\"revision\":\"5\"},\"kvs\":[{\"key\":\"***\"}]}",
          "{\"header\":{\"revision\":\"5\"},\"kvs\":{\"a\":1}}",
          "{\"header\":{\"revision\":\"5\"},\"kvs\":[{\"key\":\"YQ==\",\"version\":true}]}",
          "{\"header\":{\"revision\":\"5\"},\"kvs\":[7]}"}) {
        CannedServer server(http_response(body));
        auto c = client_of(server);
        EXPECT_FALSE(c.get("a").is_ok()) << body;
        EXPECT_FALSE(c.get_prefix("a").is_ok()) << body;
    }
    {
        // Two keys for one, and "more" without keys (would loop forever).
        CannedServer two(http_response(
            "{\"header\":{\"revision\":\"5\"},\"kvs\":[{\"key\":\"YQ==\"},{\"key\":\"Yg==\"}]}"));
        EXPECT_FALSE(client_of(two).get("a").is_ok());
        CannedServer more(http_response("{\"header\":{\"revision\":\"5\"},\"more\":true}"));
        auto r = client_of(more).get_prefix("a");
        ASSERT_FALSE(r.is_ok());
        EXPECT_NE(r.status().message().find("malformed"), std::string::npos);
    }
    // Transaction replies whose responses do not match the operations.
    for (const std::string body :
         {"{\"header\":{\"revision\":\"5\"},\"succeeded\":true,\"responses\":7}",
          "{\"header\":{\"revision\":\"5\"},\"succeeded\":\"yes\"}",
          "{\"header\":{\"revision\":\"5\"},\"succeeded\":true,\"responses\":[]}",
          "{\"header\":{\"revision\":\"5\"},\"succeeded\":true,\"responses\":[{\"response_range\":["
          "]}]}"}) {
        CannedServer server(http_response(body));
        EXPECT_FALSE(client_of(server).txn({}, {TxnOp::range("a")}, {}).is_ok()) << body;
    }
    // Lease replies.
    for (const std::string body : {"{\"ID\":\"0\",\"TTL\":\"5\"}", "{\"ID\":\"7\"}",
                                   "{\"ID\":\"7\",\"TTL\":\"5\",\"error\":\"no space\"}"}) {
        CannedServer server(http_response(body));
        EXPECT_FALSE(client_of(server).grant_lease(5).is_ok()) << body;
    }
    {
        CannedServer server(http_response("{\"result\":{\"TTL\":[1]}}"));
        EXPECT_FALSE(client_of(server).keep_alive_once(7).is_ok());
    }
    CannedServer html(http_response("<html>Bad Gateway</html>", 502));
    auto c = EtcdClient::create({{html.endpoint()}});
    auto r = c->get("a");
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().message(), "etcd at " + html.endpoint() +
                                        " answered /v3/kv/range with HTTP 502: <html>Bad "
                                        "Gateway</html>");
}

}  // namespace
}  // namespace tessel::cluster
