// Task<T>: the coroutine type of every asynchronous path (the coordinator's
// calls to replicas, internode messaging), and Completion<T>, the one-shot
// value a callback hands to a waiting coroutine.
//
// Why not asio::awaitable: an awaitable only starts through co_spawn, which
// posts, so even a request served entirely by the local replica would pay a
// queue hop and could not finish inside the call that started it. A Task
// starts eagerly and runs until its first real suspension; a Task whose
// awaits were all ready (the single-node path) is finished when the call
// returns, and its caller takes the result with no scheduling at all.
//
// Rules:
// - A Task must be awaited (co_await), handed to then(), or be finished
//   before it is destroyed: destroying a suspended Task is a defect (the
//   operation it waits on would resume freed memory).
// - Where a coroutine continues after a suspension: on the Executor that was
//   current (current_executor()) on the thread that suspended it, or inline
//   on the thread that completed the operation when there was none. Event
//   loop threads install their loop as the current executor, so a request
//   that started on a loop always continues on that loop.
// - Exceptions thrown inside a Task are rethrown where it is awaited.
// - g++ 12 destroys a brace-initialized aggregate temporary twice when it is
//   created inside a co_await expression (`co_await f(KeyRange{})` frees the
//   same string twice): pass named objects to co_awaited calls instead.
#pragma once

#include <atomic>
#include <condition_variable>
#include <coroutine>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/frame_cache.h"

namespace tessel {

// Something that runs posted functions on its own thread(s), in order.
class Executor {
  public:
    virtual ~Executor() = default;
    virtual void post(std::function<void()> fn) = 0;
};

namespace detail {
inline Executor*& current_executor_slot() {
    thread_local Executor* executor = nullptr;
    return executor;
}
}  // namespace detail

// The executor coroutines suspended on this thread continue on (null: inline).
inline Executor* current_executor() {
    return detail::current_executor_slot();
}

// Makes `executor` the current one for this thread until the scope ends.
class ExecutorScope {
  public:
    explicit ExecutorScope(Executor* executor) : previous_(detail::current_executor_slot()) {
        detail::current_executor_slot() = executor;
    }
    ~ExecutorScope() { detail::current_executor_slot() = previous_; }
    ExecutorScope(const ExecutorScope&) = delete;
    ExecutorScope& operator=(const ExecutorScope&) = delete;

  private:
    Executor* previous_;
};

// Resumes `h` on `executor`, or right here when it is null.
inline void resume_on(Executor* executor, std::coroutine_handle<> h) {
    if (executor) {
        executor->post([h] { h.resume(); });
    } else {
        h.resume();
    }
}

template <class T>
class Task;

namespace detail {

// The state word of a task: null while running with nobody waiting, the
// waiter's frame address once someone awaits, done_marker() once finished.
// The exchange makes "finish" and "start waiting" safe from two threads.
inline void* done_marker() {
    static char marker;
    return &marker;
}

class TaskPromiseBase {
  public:
    // Frames come from the per-thread cache (frame_cache.h).
    static void* operator new(std::size_t n) { return FrameCache::allocate(n); }
    static void operator delete(void* p, std::size_t n) noexcept { FrameCache::deallocate(p, n); }

    std::suspend_never initial_suspend() noexcept { return {}; }

    struct FinalAwaiter {
        bool await_ready() noexcept { return false; }
        template <class P>
        std::coroutine_handle<> await_suspend(std::coroutine_handle<P> h) noexcept {
            void* waiter = h.promise().state_.exchange(done_marker(), std::memory_order_acq_rel);
            if (waiter == nullptr) return std::noop_coroutine();
            return std::coroutine_handle<>::from_address(waiter);
        }
        void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void unhandled_exception() { exception_ = std::current_exception(); }

    bool done() const { return state_.load(std::memory_order_acquire) == done_marker(); }
    // False when the task finished first (the waiter must not suspend).
    bool set_waiter(std::coroutine_handle<> waiter) {
        void* expected = nullptr;
        return state_.compare_exchange_strong(expected, waiter.address(),
                                              std::memory_order_acq_rel);
    }
    void rethrow_if_failed() const {
        if (exception_) std::rethrow_exception(exception_);
    }

  private:
    std::atomic<void*> state_{nullptr};
    std::exception_ptr exception_;
};

template <class T>
class TaskPromise : public TaskPromiseBase {
  public:
    Task<T> get_return_object();
    template <class U>
    void return_value(U&& value) {
        value_.emplace(std::forward<U>(value));
    }
    T take() {
        rethrow_if_failed();
        return std::move(*value_);
    }
    // For co_await: the value itself, moved from once by whoever takes it
    // (a `co_return co_await f()` moves it straight into the caller's
    // promise). Valid until the awaited Task is destroyed, at the end of the
    // full-expression: bind no reference to a co_await.
    T&& take_ref() {
        rethrow_if_failed();
        return std::move(*value_);
    }

  private:
    std::optional<T> value_;
};

template <>
class TaskPromise<void> : public TaskPromiseBase {
  public:
    Task<void> get_return_object();
    void return_void() {}
    void take() { rethrow_if_failed(); }
};

}  // namespace detail

template <class T = void>
class [[nodiscard]] Task {
  public:
    using promise_type = detail::TaskPromise<T>;
    using Handle = std::coroutine_handle<promise_type>;

    Task() = default;
    Task(Task&& other) noexcept : h_(std::exchange(other.h_, {})) {}
    Task& operator=(Task&& other) noexcept {
        if (this != &other) {
            reset();
            h_ = std::exchange(other.h_, {});
        }
        return *this;
    }
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    ~Task() { reset(); }

    bool valid() const { return static_cast<bool>(h_); }
    // True once the coroutine returned (for a Task that never suspended: at once).
    bool ready() const { return h_.promise().done(); }
    // The result of a ready task (rethrows its exception); call once.
    T take() { return h_.promise().take(); }

    auto operator co_await() && noexcept { return Awaiter{h_}; }
    auto operator co_await() & noexcept { return Awaiter{h_}; }

  private:
    friend class detail::TaskPromise<T>;
    explicit Task(Handle h) : h_(h) {}
    void reset() {
        if (h_) {
            // A suspended task must not be destroyed (see the rules above).
            if (!h_.promise().done()) std::abort();
            h_.destroy();
            h_ = {};
        }
    }

    struct Awaiter {
        Handle h;
        bool await_ready() const noexcept { return h.promise().done(); }
        bool await_suspend(std::coroutine_handle<> waiter) noexcept {
            return h.promise().set_waiter(waiter);
        }
        decltype(auto) await_resume() {
            if constexpr (std::is_void_v<T>) {
                h.promise().take();
            } else {
                return h.promise().take_ref();
            }
        }
    };

    Handle h_;
};

namespace detail {
template <class T>
Task<T> TaskPromise<T>::get_return_object() {
    return Task<T>(std::coroutine_handle<TaskPromise<T>>::from_promise(*this));
}
inline Task<void> TaskPromise<void>::get_return_object() {
    return Task<void>(std::coroutine_handle<TaskPromise<void>>::from_promise(*this));
}

// A coroutine nobody awaits: it frees itself when it returns.
struct Detached {
    struct promise_type {
        Detached get_return_object() noexcept { return {}; }
        std::suspend_never initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        // Callers catch inside; an escaping exception is a defect.
        void unhandled_exception() noexcept { std::terminate(); }
    };
};

template <class T, class F>
Detached await_then(Task<T> task, F done) {
    if constexpr (std::is_void_v<T>) {
        co_await std::move(task);
        done();
    } else {
        done(co_await std::move(task));
    }
}
}  // namespace detail

// Calls `done(result)` when `task` finishes: at once when it is already
// finished, else from wherever it finishes. The task's exception, if any,
// terminates the process: wrap such tasks in a coroutine that catches.
// A Task that is already finished with `value`: how a function that hands
// back another coroutine's Task (rather than being a coroutine layer itself)
// returns early.
template <class T>
Task<T> ready_task(T value) {
    co_return value;
}

template <class T, class F>
void then(Task<T> task, F done) {
    if (task.ready()) {
        if constexpr (std::is_void_v<T>) {
            task.take();
            done();
        } else {
            done(task.take());
        }
        return;
    }
    detail::await_then(std::move(task), std::move(done));
}

// Blocks this thread until the task made by `make()` finishes and returns its
// result. The task is started with no current executor, so it never waits for
// a loop to resume it: never call this on an event loop thread.
template <class F>
auto sync_wait(F&& make) {
    ExecutorScope none(nullptr);
    auto task = make();
    using T = decltype(task.take());
    if (task.ready()) return task.take();
    std::mutex mu;
    std::condition_variable cv;
    bool finished = false;
    std::exception_ptr error;
    std::optional<std::conditional_t<std::is_void_v<T>, int, T>> value;
    auto wrapper = [](decltype(task) t, auto* out, std::exception_ptr* err) -> Task<void> {
        try {
            if constexpr (std::is_void_v<T>) {
                co_await std::move(t);
                out->emplace(0);
            } else {
                out->emplace(co_await std::move(t));
            }
        } catch (...) {
            *err = std::current_exception();
        }
    };
    then(wrapper(std::move(task), &value, &error), [&] {
        std::lock_guard lock(mu);
        finished = true;
        cv.notify_one();
    });
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return finished; });
    if (error) std::rethrow_exception(error);
    if constexpr (!std::is_void_v<T>) return std::move(*value);
}

// A value set once, by any thread, for one coroutine to await: how a
// callback (a reply, a timer) hands its result to a waiting Task. Copies
// share the state.
template <class T>
class Completion {
  public:
    Completion() : s_(std::make_shared<State>()) {}

    // The first set() wins; later ones return false and change nothing.
    bool set(T value) {
        std::coroutine_handle<> waiter;
        Executor* executor = nullptr;
        {
            std::lock_guard lock(s_->mu);
            if (s_->value) return false;
            s_->value.emplace(std::move(value));
            waiter = std::exchange(s_->waiter, {});
            executor = s_->executor;
        }
        if (waiter) resume_on(executor, waiter);
        return true;
    }
    bool is_set() const {
        std::lock_guard lock(s_->mu);
        return s_->value.has_value();
    }

    // Awaits the value (one waiter at a time); takes it.
    auto wait() { return Awaiter{s_}; }

  private:
    struct State {
        std::mutex mu;
        std::optional<T> value;
        std::coroutine_handle<> waiter;
        Executor* executor = nullptr;
    };
    struct Awaiter {
        std::shared_ptr<State> s;
        bool await_ready() const {
            std::lock_guard lock(s->mu);
            return s->value.has_value();
        }
        bool await_suspend(std::coroutine_handle<> h) {
            std::lock_guard lock(s->mu);
            if (s->value) return false;
            s->waiter = h;
            s->executor = current_executor();
            return true;
        }
        T await_resume() { return std::move(*s->value); }
    };
    std::shared_ptr<State> s_;
};

// Runs `fn` on `executor` and awaits its result: blocking work (an etcd
// transaction, a disk-bound scan) kept off the event loop that awaits it.
template <class F>
Task<std::invoke_result_t<F&>> run_on(Executor* executor, F fn) {
    using T = std::invoke_result_t<F&>;
    Completion<T> done;
    executor->post([&fn, done]() mutable { done.set(fn()); });
    co_return co_await done.wait();
}

// Awaits every task in order (they run concurrently: each started eagerly).
template <class T>
Task<std::vector<T>> when_all(std::vector<Task<T>> tasks) {
    std::vector<T> out;
    out.reserve(tasks.size());
    for (auto& t : tasks)
        out.push_back(co_await std::move(t));
    co_return out;
}

}  // namespace tessel
