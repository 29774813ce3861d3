// IoExecutor: an Asio io_context as the Executor suspended coroutines
// continue on (common/task.h). A thread that runs a loop installs its loop's
// IoExecutor with an ExecutorScope, so requests started there continue there.
#pragma once

#include <asio.hpp>

#include <functional>

#include "common/task.h"

namespace tessel {

class IoExecutor final : public Executor {
  public:
    // `io` must outlive this object.
    explicit IoExecutor(asio::io_context& io) : io_(io) {}
    void post(std::function<void()> fn) override { asio::post(io_, std::move(fn)); }
    asio::io_context& io() { return io_; }

  private:
    asio::io_context& io_;
};

}  // namespace tessel
