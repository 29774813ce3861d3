// OutQueue: the frames a connection has yet to write, and the batch being
// written. Used on one connection's strand only (no locking).
#pragma once

#include <asio.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/messaging_frame.h"

namespace tessel::cluster::detail {

struct OutFrame {
    std::array<char, kFrameHeaderSize> header{};
    std::string payload;
    uint64_t request_id = 0;  // the id of a kRequest frame, else 0
    bool raw = false;         // bytes without a header (a handshake)
    size_t header_size() const { return raw ? 0 : kFrameHeaderSize; }
    size_t size() const { return header_size() + payload.size(); }
};

// Bytes read from a connection and not yet decoded.
class InBuffer {
  public:
    static constexpr size_t kReadChunk = 64 * 1024;

    // Room for the next read (valid until commit()).
    asio::mutable_buffer prepare();
    // The read put `n` bytes into the prepared room.
    void commit(size_t n);
    std::string_view data() const { return std::string_view(bytes_).substr(pos_); }
    void consume(size_t n) { pos_ += n; }

  private:
    std::string bytes_;
    size_t pos_ = 0;
    size_t prepared_ = 0;
};

class OutQueue {
  public:
    using Handle = std::list<OutFrame>::iterator;

    // Queues a frame; the handle stays valid until the frame is erased or
    // taken into a batch.
    Handle push(const FrameHeader& header, std::string payload);
    // Queues bytes that are not a frame (a handshake reply).
    void push_raw(std::string bytes);
    // Drops a frame that is still queued (not taken into a batch).
    void erase(Handle handle);

    bool empty() const { return queued_.empty(); }
    bool writing() const { return writing_; }
    size_t queued_bytes() const { return queued_bytes_; }

    // Moves the next frames (up to about kBatchBytes, at least one) into the
    // batch and returns the buffers to write. Precondition: !writing() and
    // !empty(). Small frames are copied together so that a TLS stream writes
    // them as a few records, not one per header.
    const std::vector<asio::const_buffer>& take_batch();
    // The frames of the current batch (for the caller to note them as sent).
    const std::vector<OutFrame>& batch() const { return batch_; }
    // Releases the written batch; returns its bytes.
    size_t finish_batch();
    // Drops everything queued; returns the bytes dropped (a batch being
    // written stays until finish_batch()).
    size_t clear();

    static constexpr size_t kBatchBytes = 1 << 20;
    static constexpr size_t kBatchFrames = 1024;

  private:
    std::list<OutFrame> queued_;
    size_t queued_bytes_ = 0;
    bool writing_ = false;
    std::vector<OutFrame> batch_;
    std::deque<std::string> chunks_;
    std::vector<asio::const_buffer> buffers_;
};

}  // namespace tessel::cluster::detail
