// FrameCache: where Task coroutines' frames come from. Every call of a
// coroutine allocates its frame, so a request allocates one per layer it
// passes (server, session, coordinator, read executor, replica). Freed
// frames are kept per thread by size class (64-byte steps up to 4 KiB, at
// most 16 of each) and handed out again, so the request path stops paying
// malloc and free for them; larger frames use the heap. A frame may be
// freed on another thread than the one that allocated it: it then joins that
// thread's cache (the counts bound what one thread keeps).
//
// Under AddressSanitizer frames come from the heap, so that a use after
// free of a frame is still caught.
#pragma once

#include <cstddef>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TESSEL_FRAME_CACHE_OFF 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TESSEL_FRAME_CACHE_OFF 1
#endif

namespace tessel {

class FrameCache {
  public:
    static void* allocate(std::size_t n) {
#ifndef TESSEL_FRAME_CACHE_OFF
        const std::size_t c = size_class(n);
        if (c < kClasses) {
            Lists* ls = lists();
            if (ls != nullptr && ls->head[c] != nullptr) {
                Node* x = ls->head[c];
                ls->head[c] = x->next;
                --ls->count[c];
                return x;
            }
            return ::operator new((c + 1) * kStep);
        }
#endif
        return ::operator new(n);
    }

    static void deallocate(void* p, std::size_t n) noexcept {
        (void)n;
#ifndef TESSEL_FRAME_CACHE_OFF
        const std::size_t c = size_class(n);
        if (c < kClasses) {
            Lists* ls = lists();
            if (ls != nullptr && ls->count[c] < kKeptPerClass) {
                Node* x = static_cast<Node*>(p);
                x->next = ls->head[c];
                ls->head[c] = x;
                ++ls->count[c];
                return;
            }
            ::operator delete(p);
            return;
        }
#endif
        ::operator delete(p);
    }

  private:
    static constexpr std::size_t kStep = 64;
    static constexpr std::size_t kClasses = 64;  // frames up to 4 KiB
    static constexpr std::size_t kKeptPerClass = 16;

    struct Node {
        Node* next;
    };
    struct Lists {
        Node* head[kClasses] = {};
        std::size_t count[kClasses] = {};
        ~Lists() {
            alive() = false;
            for (std::size_t c = 0; c < kClasses; ++c) {
                while (head[c] != nullptr) {
                    Node* x = head[c];
                    head[c] = x->next;
                    ::operator delete(x);
                }
            }
        }
    };

    static std::size_t size_class(std::size_t n) {
        return n == 0 ? 0 : (n - 1) / kStep;
    }
    // False once this thread's cache is gone (a frame freed by a later
    // thread-exit destructor goes to the heap).
    static bool& alive() {
        thread_local bool on = true;
        return on;
    }
    static Lists* lists() {
        if (!alive()) return nullptr;
        thread_local Lists ls;
        return &ls;
    }
};

}  // namespace tessel
