// EventLoops: N threads, each running its own asio::io_context.
//
// A connection is bound to one loop for its whole life and every request on it
// runs to completion on that loop's thread, so connection state needs no
// locks. New connections are spread over the loops round-robin. Each loop's
// thread makes its loop the current executor (common/task.h): a request that
// waits for another node continues on its connection's loop.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "common/io_executor.h"

namespace tessel::server {

class EventLoops {
  public:
    // count must be >= 1.
    explicit EventLoops(int count);
    ~EventLoops();  // stops and joins

    EventLoops(const EventLoops&) = delete;
    EventLoops& operator=(const EventLoops&) = delete;

    // Starts one thread per loop. The loops keep running (even idle) until stop().
    void start();
    // Stops every loop and joins the threads. Idempotent.
    void stop();

    int size() const { return static_cast<int>(loops_.size()); }
    asio::io_context& loop(int i) { return *loops_[static_cast<size_t>(i)]; }
    // The next loop in round-robin order (thread-safe).
    asio::io_context& next();

  private:
    using WorkGuard = asio::executor_work_guard<asio::io_context::executor_type>;
    std::vector<std::unique_ptr<asio::io_context>> loops_;
    std::vector<std::unique_ptr<IoExecutor>> executors_;  // one per loop
    std::vector<std::unique_ptr<WorkGuard>> guards_;
    std::vector<std::thread> threads_;
    std::atomic<uint64_t> next_{0};
};

}  // namespace tessel::server
