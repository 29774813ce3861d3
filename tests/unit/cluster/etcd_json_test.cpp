// The etcd client's reading of gateway messages, without an etcd: encodings,
// the stream splitter under every chunking, and malformed replies.
#include "cluster/etcd_json.h"

#include <gtest/gtest.h>

#include "cluster/etcd_transport.h"

namespace tessel::cluster {
namespace {

using etcd_json::Json;

TEST(EtcdJson, Base64RoundTripsEveryLengthAndByte) {
    std::string bytes;
    for (int i = 0; i < 256; ++i)
        bytes.push_back(static_cast<char>(i));
    for (size_t n = 0; n <= bytes.size(); n += 1) {
        std::string in = bytes.substr(0, n);
        auto out = etcd_json::base64_decode(etcd_json::base64_encode(in));
        ASSERT_TRUE(out.has_value()) << n;
        EXPECT_EQ(*out, in) << n;
    }
    EXPECT_EQ(etcd_json::base64_encode("foo"), "Zm9v");
    EXPECT_EQ(etcd_json::base64_encode("fo"), "Zm8=");
    EXPECT_EQ(etcd_json::base64_encode("f"), "Zg==");
}

TEST(EtcdJson, Base64RejectsBadText) {
    EXPECT_FALSE(etcd_json::base64_decode("Zm9").has_value());       // length
    EXPECT_FALSE(etcd_json::base64_decode("Zm9*").has_value());      // alphabet
    EXPECT_FALSE(etcd_json::base64_decode("Z===").has_value());      // too much padding
    EXPECT_FALSE(etcd_json::base64_decode("Zg==Zg==").has_value());  // padding inside
    EXPECT_EQ(etcd_json::base64_decode("").value(), "");
}

TEST(EtcdJson, PrefixRangeEnd) {
    EXPECT_EQ(etcd_json::prefix_range_end("a/"), "a0");
    EXPECT_EQ(etcd_json::prefix_range_end(std::string("a\xff", 2)), "b");
    EXPECT_EQ(etcd_json::prefix_range_end(std::string("\xff\xff", 2)), std::string(1, '\0'));
    EXPECT_EQ(etcd_json::prefix_range_end(""), std::string(1, '\0'));
}

TEST(EtcdJson, ReadsInt64AsStringOrNumber) {
    Json j = Json::parse(R"({"a":"42","b":7,"c":"-3","d":"x","e":"","f":1.5,
                             "g":"9223372036854775808","h":18446744073709551615})");
    int64_t v = -1;
    EXPECT_TRUE(etcd_json::read_int64(j, "a", &v));
    EXPECT_EQ(v, 42);
    EXPECT_TRUE(etcd_json::read_int64(j, "b", &v));
    EXPECT_EQ(v, 7);
    EXPECT_TRUE(etcd_json::read_int64(j, "c", &v));
    EXPECT_EQ(v, -3);
    EXPECT_TRUE(etcd_json::read_int64(j, "absent", &v));
    EXPECT_EQ(v, 0);
    for (const char* bad : {"d", "e", "f", "g", "h"}) {
        EXPECT_FALSE(etcd_json::read_int64(j, bad, &v)) << bad;
    }
    EXPECT_TRUE(etcd_json::read_int64(Json::array(), "a", &v));  // not an object: absent
}

TEST(EtcdJson, ReadsRangePagesAndRefusesBadOnes) {
    std::string what;
    auto page =
        etcd_json::read_range_page(Json::parse(R"({"header":{"revision":"9"},"more":true,"kvs":[
            {"key":"Zm9v","value":"YmFy","create_revision":"2","mod_revision":"5","version":"3",
             "lease":"77"},{"key":"Zm9w"}]})"),
                                   &what);
    ASSERT_TRUE(page.has_value()) << what;
    EXPECT_EQ(page->result.revision, 9);
    EXPECT_TRUE(page->more);
    ASSERT_EQ(page->result.kvs.size(), 2u);
    EXPECT_EQ(page->result.kvs[0], (KeyValue{"foo", "bar", 2, 5, 3, 77}));
    EXPECT_EQ(page->result.kvs[1], (KeyValue{"fop", "", 0, 0, 0, 0}));

    for (const char* bad : {R"([])", R"({"header":{"revision":"x"}})", R"({"header":7})",
                            R"({"kvs":{}})", R"({"kvs":[1]})", R"({"kvs":[{"key":"!!!!"}]})",
                            R"({"kvs":[{"key":5}]})", R"({"more":"yes"})"}) {
        what.clear();
        EXPECT_FALSE(etcd_json::read_range_page(Json::parse(bad), &what).has_value()) << bad;
        EXPECT_FALSE(what.empty()) << bad;
    }
}

TEST(EtcdJson, ReadsBothErrorForms) {
    auto plain = etcd_json::read_error(Json::parse(
        R"({"error":"etcdserver: requested lease not found","message":"etcdserver: requested lease not found","code":5})"));
    ASSERT_TRUE(plain.has_value());
    EXPECT_EQ(plain->code, 5);
    EXPECT_EQ(plain->message, "etcdserver: requested lease not found");
    auto streamed = etcd_json::read_error(Json::parse(
        R"({"error":{"grpc_code":14,"http_code":503,"message":"etcdserver: no leader"}})"));
    ASSERT_TRUE(streamed.has_value());
    EXPECT_EQ(streamed->code, 14);
    EXPECT_EQ(streamed->message, "etcdserver: no leader");
    EXPECT_FALSE(etcd_json::read_error(Json::parse(R"({"header":{}})")).has_value());
    EXPECT_FALSE(etcd_json::read_error(Json::parse(R"({"ID":"1","error":""})")).has_value());
    EXPECT_TRUE(
        etcd_json::read_error(Json::parse(R"({"error":"lease grant failed"})")).has_value());
}

TEST(EtcdJson, SplitterFindsObjectsAtEveryChunking) {
    const std::string stream =
        "{\"result\":{\"created\":true}}\n"
        "{\"result\":{\"k\":\"brace } and \\\" quote {\",\"l\":[{},{\"x\":[]}]}}\n"
        "  {\"a\":1}{\"b\":2}\r\n";
    const std::vector<std::string> expected = {
        "{\"result\":{\"created\":true}}",
        "{\"result\":{\"k\":\"brace } and \\\" quote {\",\"l\":[{},{\"x\":[]}]}}", "{\"a\":1}",
        "{\"b\":2}"};
    for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
        etcd_json::ObjectSplitter splitter(1 << 20);
        std::vector<std::string> got;
        for (size_t i = 0; i < stream.size(); i += chunk) {
            ASSERT_TRUE(splitter.feed(std::string_view(stream).substr(i, chunk)));
            while (auto o = splitter.next())
                got.push_back(*o);
        }
        EXPECT_EQ(got, expected) << "chunk " << chunk;
        for (const auto& o : got)
            EXPECT_FALSE(Json::parse(o, nullptr, false).is_discarded());
    }
}

TEST(EtcdJson, SplitterFailsOnNonObjectsAndOversizedObjects) {
    etcd_json::ObjectSplitter garbage(1 << 20);
    EXPECT_FALSE(garbage.feed("<html>"));
    EXPECT_TRUE(garbage.failed());
    EXPECT_FALSE(garbage.feed("{}"));

    etcd_json::ObjectSplitter small(16);
    EXPECT_TRUE(small.feed("{\"a\":1}"));
    EXPECT_TRUE(small.next().has_value());
    EXPECT_FALSE(small.feed("{\"a\":\"0123456789abcdef\"}"));
    small.reset();
    EXPECT_TRUE(small.feed("{}"));
    EXPECT_EQ(small.next().value(), "{}");
}

TEST(EtcdJson, ParseReplyTurnsErrorsIntoStatus) {
    int64_t code = 0;
    auto refused = EtcdTransport::parse_reply(
        "http://h:1", "/v3/lease/revoke", 404,
        R"({"error":"etcdserver: requested lease not found","message":"etcdserver: requested lease not found","code":5})",
        &code);
    ASSERT_FALSE(refused.is_ok());
    EXPECT_EQ(code, 5);
    EXPECT_EQ(refused.status().code(), ErrorCode::kServerError);
    EXPECT_EQ(refused.status().message(),
              "etcd at http://h:1 refused /v3/lease/revoke: etcdserver: requested lease not found");

    auto html = EtcdTransport::parse_reply("http://h:1", "/v3/kv/put", 502,
                                           "<html>\x01 bad gateway</html>", nullptr);
    ASSERT_FALSE(html.is_ok());
    EXPECT_EQ(html.status().message(),
              "etcd at http://h:1 answered /v3/kv/put with HTTP 502: <html>? bad gateway</html>");

    auto truncated =
        EtcdTransport::parse_reply("http://h:1", "/v3/kv/put", 200, "{\"header\":", nullptr);
    ASSERT_FALSE(truncated.is_ok());
    EXPECT_NE(truncated.status().message().find("malformed reply"), std::string::npos);

    auto streamed = EtcdTransport::parse_reply("http://h:1", "/v3/lease/keepalive", 200,
                                               R"({"result":{"ID":"5","TTL":"3"}})", nullptr);
    ASSERT_TRUE(streamed.is_ok());
    EXPECT_EQ((*streamed)["TTL"], "3");
}

}  // namespace
}  // namespace tessel::cluster
