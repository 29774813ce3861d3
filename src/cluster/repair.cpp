#include "cluster/repair.h"

#include <limits>

#include "partition/token.h"

namespace tessel::cluster {
namespace {

constexpr int kSubRanges = 16;

// Token boundaries cutting a hash tablet's range into kSubRanges.
std::vector<std::string> token_cuts(const storage::KeyRange& range) {
    using Wide = __int128;
    const Wide lo = range.start_key.empty() ? Wide{std::numeric_limits<int64_t>::min()}
                                            : Wide{decode_token_prefix(range.start_key).value()};
    const Wide hi = range.end_key.empty() ? Wide{std::numeric_limits<int64_t>::max()} + 1
                                          : Wide{decode_token_prefix(range.end_key).value()};
    std::vector<std::string> cuts;
    for (int i = 1; i < kSubRanges; ++i) {
        const Wide t = lo + (hi - lo) * i / kSubRanges;
        if (t <= lo || t >= hi) continue;
        std::string cut = encode_token_prefix(static_cast<int64_t>(t));
        if (cuts.empty() || cut > cuts.back()) cuts.push_back(std::move(cut));
    }
    return cuts;
}

}  // namespace

Task<Result<RepairReport>> repair_tablet(StorageProxy& proxy, const std::string& table_id,
                                         const storage::KeyRange& range, bool hashed,
                                         const std::vector<std::string>& replicas,
                                         std::chrono::steady_clock::time_point deadline) {
    RepairReport report;
    RangeDigestCommand c;
    c.table_id = table_id;
    c.range = range;
    if (hashed) {
        bool tokens = true;
        for (const auto* k : {&range.start_key, &range.end_key}) {
            tokens = tokens && (k->empty() || decode_token_prefix(*k).is_ok());
        }
        if (tokens) c.boundaries = token_cuts(range);
    }
    const std::string payload = encode(c);
    std::vector<RangeDigestResponse> digests;
    for (const auto& host : replicas) {
        RangeDigestResponse d;
        if (host == proxy.options().self) {
            TESSEL_CO_ASSIGN_OR_RETURN(d, proxy.local().digest_ranges(c));
        } else {
            MessagingResult r =
                co_await proxy.send(host, ReplicaVerb::kRangeDigest, payload, deadline);
            if (!r.is_ok()) co_return Status(r.status().code(), r.status().message());
            TESSEL_CO_RETURN_IF_ERROR(decode(*r, &d));
        }
        if (d.digests.size() != c.boundaries.size() + 1) {
            co_return Status::server("A replica answered a repair with the wrong digest count");
        }
        digests.push_back(std::move(d));
    }
    for (size_t i = 0; i <= c.boundaries.size(); ++i) {
        ++report.ranges;
        if (!digests.empty()) report.partitions += digests[0].partitions[i];
        bool same = true;
        for (const auto& d : digests)
            same = same && d.digests[i] == digests[0].digests[i];
        if (same) continue;
        ++report.mismatched;
        storage::KeyRange sub = range;
        if (i > 0) {
            sub.start_key = c.boundaries[i - 1];
            sub.start_inclusive = true;
        }
        if (i < c.boundaries.size()) {
            sub.end_key = c.boundaries[i];
            sub.end_inclusive = false;
        }
        TESSEL_CO_RETURN_IF_ERROR(co_await proxy.repair_range(table_id, sub, replicas, deadline));
    }
    co_return report;
}

}  // namespace tessel::cluster
