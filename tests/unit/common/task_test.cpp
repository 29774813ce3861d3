#include "common/task.h"

#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>
#include <string>
#include <thread>

namespace tessel {
namespace {

Task<int> ready_value(int v) {
    co_return v;
}

Task<int> sum_of_ready(int a, int b) {
    int x = co_await ready_value(a);
    int y = co_await ready_value(b);
    co_return x + y;
}

Task<int> wait_for(Completion<int> c) {
    int v = co_await c.wait();
    co_return v * 2;
}

Task<int> nested_wait(Completion<int> c) {
    int v = co_await wait_for(c);
    co_return v + 1;
}

Task<void> throws_after(Completion<int> c) {
    co_await c.wait();
    throw std::runtime_error("boom");
}

// An executor whose posted functions run when the test says so.
class QueueExecutor final : public Executor {
  public:
    void post(std::function<void()> fn) override {
        std::lock_guard lock(mu_);
        queue_.push_back(std::move(fn));
    }
    size_t run() {
        size_t n = 0;
        while (true) {
            std::function<void()> fn;
            {
                std::lock_guard lock(mu_);
                if (queue_.empty()) return n;
                fn = std::move(queue_.front());
                queue_.pop_front();
            }
            fn();
            ++n;
        }
    }

  private:
    std::mutex mu_;
    std::deque<std::function<void()>> queue_;
};

TEST(Task, FinishesInsideTheCallWhenNothingSuspends) {
    auto t = sum_of_ready(2, 3);
    ASSERT_TRUE(t.ready());
    EXPECT_EQ(t.take(), 5);
}

TEST(Task, ResumesTheWaitingChainWhenTheValueArrives) {
    Completion<int> c;
    auto t = nested_wait(c);
    EXPECT_FALSE(t.ready());
    EXPECT_TRUE(c.set(20));
    EXPECT_FALSE(c.set(30));  // first set wins
    ASSERT_TRUE(t.ready());
    EXPECT_EQ(t.take(), 41);
}

TEST(Task, ContinuesOnTheExecutorThatWasCurrentWhenItSuspended) {
    QueueExecutor loop;
    Completion<int> c;
    Task<int> t;
    {
        ExecutorScope scope(&loop);
        t = nested_wait(c);
    }
    std::thread other([&] { c.set(1); });
    other.join();
    EXPECT_FALSE(t.ready());  // posted to the loop, not run on the other thread
    EXPECT_EQ(loop.run(), 1u);
    ASSERT_TRUE(t.ready());
    EXPECT_EQ(t.take(), 3);
}

TEST(Task, ExceptionsReachTheAwaiter) {
    Completion<int> c;
    auto outer = [](Completion<int> c) -> Task<std::string> {
        try {
            co_await throws_after(c);
        } catch (const std::runtime_error& e) {
            co_return std::string(e.what());
        }
        co_return std::string("no exception");
    };
    auto t = outer(c);
    c.set(0);
    ASSERT_TRUE(t.ready());
    EXPECT_EQ(t.take(), "boom");
}

TEST(Task, ThenRunsAtOnceForAReadyTaskAndLaterOtherwise) {
    int got = 0;
    then(ready_value(7), [&](int v) { got = v; });
    EXPECT_EQ(got, 7);
    Completion<int> c;
    then(wait_for(c), [&](int v) { got = v; });
    EXPECT_EQ(got, 7);
    c.set(5);
    EXPECT_EQ(got, 10);
}

TEST(Task, SyncWaitBlocksUntilAnotherThreadCompletes) {
    Completion<int> c;
    std::thread other([c]() mutable {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        c.set(4);
    });
    EXPECT_EQ(sync_wait([&] { return nested_wait(c); }), 9);
    other.join();
    EXPECT_EQ(sync_wait([] { return ready_value(3); }), 3);
}

TEST(Task, WhenAllAwaitsTasksThatRunConcurrently) {
    std::vector<Completion<int>> cs(3);
    std::vector<Task<int>> tasks;
    for (auto& c : cs)
        tasks.push_back(wait_for(c));
    auto all = when_all(std::move(tasks));
    cs[2].set(3);
    cs[0].set(1);
    EXPECT_FALSE(all.ready());
    cs[1].set(2);
    ASSERT_TRUE(all.ready());
    EXPECT_EQ(all.take(), (std::vector<int>{2, 4, 6}));
}

// Completion and awaiting race from two threads: every task still finishes
// exactly once with its value.
TEST(Task, CompletionRacingTheAwaitIsSafe) {
    constexpr int kRounds = 2000;
    for (int i = 0; i < kRounds; ++i) {
        Completion<int> c;
        std::thread setter([c, i]() mutable { c.set(i); });
        int v = sync_wait([&] { return wait_for(c); });
        setter.join();
        ASSERT_EQ(v, 2 * i);
    }
}

}  // namespace
}  // namespace tessel
