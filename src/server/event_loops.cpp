#include "server/event_loops.h"

#include <spdlog/spdlog.h>

namespace tessel::server {

EventLoops::EventLoops(int count) {
    if (count < 1) count = 1;
    for (int i = 0; i < count; ++i) {
        // Concurrency hint 1: each context is driven by exactly one thread.
        loops_.push_back(std::make_unique<asio::io_context>(1));
        executors_.push_back(std::make_unique<IoExecutor>(*loops_.back()));
        guards_.push_back(std::make_unique<WorkGuard>(loops_.back()->get_executor()));
    }
}

EventLoops::~EventLoops() {
    stop();
}

void EventLoops::start() {
    for (size_t i = 0; i < loops_.size(); ++i) {
        asio::io_context* ctx = loops_[i].get();
        IoExecutor* executor = executors_[i].get();
        threads_.emplace_back([ctx, executor] {
            ExecutorScope scope(executor);
            for (;;) {
                try {
                    ctx->run();
                    return;
                } catch (const std::exception& e) {
                    // A handler must never take the loop down with it.
                    spdlog::error("event loop handler failed: {}", e.what());
                }
            }
        });
    }
}

void EventLoops::stop() {
    guards_.clear();
    for (auto& loop : loops_)
        loop->stop();
    for (auto& t : threads_) {
        if (t.joinable()) t.join();
    }
    threads_.clear();
}

asio::io_context& EventLoops::next() {
    uint64_t i = next_.fetch_add(1, std::memory_order_relaxed);
    return *loops_[i % loops_.size()];
}

}  // namespace tessel::server
