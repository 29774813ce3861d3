#include "console/sampler.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "console/tablet_snapshot.h"
#include "diagnostics/clock.h"

namespace tessel::console {

Sampler::Sampler(Database& db, HeatmapHistory& history, TabletChanges& changes)
    : db_(db), history_(history), changes_(changes) {}

Sampler::~Sampler() {
    stop();
}

void Sampler::start() {
    if (thread_.joinable()) return;
    thread_ = std::thread([this] { loop(); });
}

void Sampler::stop() {
    {
        std::lock_guard lock(mu_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Sampler::sample_once() {
    const diagnostics::TimeMs now = diagnostics::now_ms();
    auto tables = read_tablets(db_);
    if (!tables.is_ok()) {
        spdlog::debug("console: cannot read system.tablets: {}", tables.status().message());
        return;
    }
    HeatFrame frame;
    frame.span_ms = history_.options().resolution_ms;
    frame.at = now - frame.span_ms;
    std::vector<std::string> names;
    for (const TableTablets& t : *tables) {
        names.push_back(t.name());
        std::vector<TabletRange> ranges;
        for (const TabletRow& r : t.tablets) {
            ranges.push_back(TabletRange{r.range_start, r.range_end});
            HeatBand b;
            b.table = t.name();
            b.range_start = r.range_start;
            b.range_end = r.range_end;
            b.y0 = r.y0;
            b.y1 = r.y1;
            b.reads_per_sec = r.reads_per_sec;
            b.writes_per_sec = r.writes_per_sec;
            b.bytes_per_sec = r.bytes_per_sec;
            b.size_bytes = static_cast<uint64_t>(r.size_bytes < 0 ? 0 : r.size_bytes);
            frame.bands.push_back(std::move(b));
        }
        changes_.observe(t.name(), ranges, now);
    }
    changes_.retain(names);
    history_.record(std::move(frame));
}

void Sampler::loop() {
    const auto step = std::chrono::milliseconds(history_.options().resolution_ms);
    auto next = std::chrono::steady_clock::now();
    std::unique_lock lock(mu_);
    while (!stopping_) {
        lock.unlock();
        sample_once();
        lock.lock();
        next += step;
        cv_.wait_until(lock, next, [this] { return stopping_; });
    }
}

}  // namespace tessel::console
