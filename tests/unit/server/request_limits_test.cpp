// Admission on one connection: the per-connection request count and the
// server's request bytes, through the stages of a response.
#include "server/request_limits.h"

#include <gtest/gtest.h>

namespace tessel::server {
namespace {

TEST(InFlightRequests, ConnectionLimitCountsRequestsUntilTheirResponseIsHandedToTheSocket) {
    auto limits = std::make_shared<RequestLimits>();
    limits->max_requests_per_connection = 2;
    InFlightRequests c(limits);
    ASSERT_TRUE(c.admit(10).is_ok());
    ASSERT_TRUE(c.admit(10).is_ok());
    Status refused = c.admit(10);
    EXPECT_EQ(refused.code(), ErrorCode::kOverloaded);
    EXPECT_NE(refused.message().find("native_transport_max_requests_per_connection"),
              std::string::npos);
    c.queued();
    EXPECT_EQ(c.admit(10).code(), ErrorCode::kOverloaded);
    // Once the responses are being written the client may already have them
    // and send the next requests on the same streams.
    c.writing();
    EXPECT_EQ(c.count(), 0u);
    ASSERT_TRUE(c.admit(10).is_ok());
    ASSERT_TRUE(c.admit(10).is_ok());
    EXPECT_EQ(c.admit(10).code(), ErrorCode::kOverloaded);
    // The bytes of the responses still being written stay counted.
    EXPECT_EQ(limits->request_bytes.load(), 40u);
    c.written();
    EXPECT_EQ(limits->request_bytes.load(), 20u);
    c.release_all();
    EXPECT_EQ(limits->request_bytes.load(), 0u);
}

TEST(InFlightRequests, ServerBytesLimitIsSharedAndAdmitsOneRequestAlone) {
    auto limits = std::make_shared<RequestLimits>();
    limits->max_request_bytes = 100;
    InFlightRequests a(limits), b(limits);
    ASSERT_TRUE(a.admit(60).is_ok());
    Status refused = b.admit(60);
    EXPECT_EQ(refused.code(), ErrorCode::kOverloaded);
    EXPECT_NE(refused.message().find("native_transport_max_concurrent_requests_in_bytes"),
              std::string::npos);
    a.queued();
    a.writing();
    EXPECT_EQ(b.admit(60).code(), ErrorCode::kOverloaded);  // still being written
    a.written();
    ASSERT_TRUE(b.admit(60).is_ok());
    b.release_all();
    // A single frame larger than the limit runs when nothing else is in flight.
    EXPECT_TRUE(b.admit(500).is_ok());
}

}  // namespace
}  // namespace tessel::server
