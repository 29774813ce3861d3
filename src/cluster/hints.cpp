#include "cluster/hints.h"

#include "cluster/node_record.h"
#include "common/wall_clock.h"
#include "storage/store.h"

namespace tessel::cluster {
namespace {

std::string prefix_of(const std::string& host) {
    return "hint/" + host_id_hex(host) + "/";
}

// Fixed-width hex keeps hints in time order.
std::string hex64(uint64_t v) {
    static const char* kHex = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, v >>= 4)
        out[static_cast<size_t>(i)] = kHex[v & 15];
    return out;
}

}  // namespace

HintStore::HintStore(storage::Store* store, int64_t window_ms)
    : store_(store), window_ms_(window_ms) {}

void HintStore::mark_down(const std::string& host) {
    std::lock_guard lock(mu_);
    down_since_ms_.try_emplace(host, wall_clock_ms());
}

void HintStore::mark_up(const std::string& host) {
    std::lock_guard lock(mu_);
    down_since_ms_.erase(host);
}

Status HintStore::add(const std::string& host, const MutationMessage& m) {
    uint64_t seq = 0;
    const int64_t now = wall_clock_ms();
    {
        std::lock_guard lock(mu_);
        auto it = down_since_ms_.find(host);
        if (it != down_since_ms_.end() && now - it->second > window_ms_) return Status::ok();
        seq = ++sequence_;
    }
    const std::string key = prefix_of(host) + hex64(static_cast<uint64_t>(now)) + hex64(seq);
    return store_->put_local(key, encode(m));
}

Result<std::vector<Hint>> HintStore::pending(const std::string& host, size_t limit) {
    TESSEL_ASSIGN_OR_RETURN(auto entries, store_->list_local(prefix_of(host), limit));
    std::vector<Hint> out;
    for (auto& [k, v] : entries) {
        Hint h;
        h.key = std::move(k);
        if (!decode(v, &h.message).is_ok()) {
            // A damaged hint cannot be delivered; repair covers what it held.
            (void)store_->delete_local(h.key);
            continue;
        }
        out.push_back(std::move(h));
    }
    return out;
}

Status HintStore::remove(const Hint& hint) {
    return store_->delete_local(hint.key);
}

size_t HintStore::count(const std::string& host, size_t cap) {
    auto entries = store_->list_local(prefix_of(host), cap);
    return entries.is_ok() ? entries->size() : 0;
}

Task<Result<size_t>> HintStore::replay(
    std::string host, std::function<Task<Status>(const MutationMessage&)> deliver) {
    size_t delivered = 0;
    while (true) {
        auto batch = pending(host, 128);
        if (!batch.is_ok()) co_return batch.status();
        if (batch->empty()) co_return delivered;
        for (const auto& h : *batch) {
            Status st = co_await deliver(h.message);
            if (!st.is_ok()) co_return delivered;
            TESSEL_CO_RETURN_IF_ERROR(remove(h));
            ++delivered;
        }
    }
}

}  // namespace tessel::cluster
