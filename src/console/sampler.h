// Sampler: the console's background thread. Every resolution step it reads
// the tablets (system.tablets), records a heat-map frame and lets
// TabletChanges find the splits and merges since the last look.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "console/heatmap_history.h"
#include "console/tablet_changes.h"
#include "tessel/database.h"

namespace tessel::console {

class Sampler {
  public:
    // `db`, `history` and `changes` must outlive the sampler.
    Sampler(Database& db, HeatmapHistory& history, TabletChanges& changes);
    ~Sampler();  // stop()

    // Takes the first sample at once, then one per history resolution.
    void start();
    // Waits for a sample in progress. Idempotent.
    void stop();

    // One sample now (what the thread does each step).
    void sample_once();

  private:
    void loop();

    Database& db_;
    HeatmapHistory& history_;
    TabletChanges& changes_;
    std::mutex mu_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace tessel::console
