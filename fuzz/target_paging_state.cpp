// fuzz_paging_state: paging states sent back by a hostile client.
#include <string>
#include <string_view>

#include "query/paging_state.h"
#include "targets.h"

namespace tessel::fuzz {
namespace {

constexpr std::string_view kSecret = "fuzz-node-secret-0123456789abcdef";
constexpr size_t kMacSize = 32;

bool same(const query::PagingState& a, const query::PagingState& b) {
    return a.table_id == b.table_id && a.fingerprint == b.fingerprint && a.columns == b.columns &&
           a.partition_key == b.partition_key && a.clustering == b.clustering &&
           a.partition_done == b.partition_done && a.remaining == b.remaining &&
           a.remaining_in_partition == b.remaining_in_partition;
}

// A decoded state must survive encoding and decoding again unchanged. (Bytes
// may differ: the partition_done flag reads any non-zero byte as true.)
void check_decoded(const query::PagingState& s) {
    auto again = query::decode_paging_state(query::encode_paging_state(s, kSecret), kSecret);
    if (!again.is_ok()) fuzz_fail("paging_state", "cannot decode what encode_paging_state wrote");
    if (!same(*again, s)) fuzz_fail("paging_state", "encode/decode round trip changed the state");
}

}  // namespace

void fuzz_paging_state(const uint8_t* data, size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);

    // As received: without the secret nothing but an encoder's output decodes.
    auto raw = query::decode_paging_state(in, kSecret);
    if (raw.is_ok()) check_decoded(*raw);

    // Signed with the secret, so the fields behind the MAC are parsed.
    std::string signed_state(in);
    signed_state += query::hmac_sha256(kSecret, in);
    auto parsed = query::decode_paging_state(signed_state, kSecret);
    if (parsed.is_ok()) check_decoded(*parsed);

    // One flipped bit anywhere must be refused.
    if (!signed_state.empty()) {
        std::string tampered = signed_state;
        tampered[size % tampered.size()] ^= 0x01;
        if (query::decode_paging_state(tampered, kSecret).is_ok()) {
            fuzz_fail("paging_state", "a tampered state was accepted");
        }
    }
    // Another node's secret must be refused.
    if (signed_state.size() > kMacSize &&
        query::decode_paging_state(signed_state, "another-secret-0123456789abcdef").is_ok()) {
        fuzz_fail("paging_state", "a state signed with another secret was accepted");
    }
}

}  // namespace tessel::fuzz
