#include "cluster/messaging_queue.h"

namespace tessel::cluster::detail {
namespace {
// Payloads at least this big are written from their own string, not copied.
constexpr size_t kCopyBelow = 16 * 1024;
}  // namespace

asio::mutable_buffer InBuffer::prepare() {
    // Decoded bytes are dropped once they are all of it, or most of a big buffer.
    if (pos_ == bytes_.size()) {
        bytes_.clear();
        pos_ = 0;
    } else if (pos_ > kReadChunk && pos_ > bytes_.size() / 2) {
        bytes_.erase(0, pos_);
        pos_ = 0;
    }
    const size_t old = bytes_.size();
    bytes_.resize(old + kReadChunk);
    prepared_ = kReadChunk;
    return asio::buffer(bytes_.data() + old, kReadChunk);
}

void InBuffer::commit(size_t n) {
    bytes_.resize(bytes_.size() - prepared_ + n);
    prepared_ = 0;
}

OutQueue::Handle OutQueue::push(const FrameHeader& header, std::string payload) {
    OutFrame frame;
    encode_frame_header(header, frame.header.data());
    frame.payload = std::move(payload);
    if (header.kind == FrameKind::kRequest) frame.request_id = header.id;
    queued_bytes_ += frame.size();
    queued_.push_back(std::move(frame));
    return std::prev(queued_.end());
}

void OutQueue::push_raw(std::string bytes) {
    OutFrame frame;
    frame.payload = std::move(bytes);
    frame.raw = true;
    queued_bytes_ += frame.size();
    queued_.push_back(std::move(frame));
}

void OutQueue::erase(Handle handle) {
    queued_bytes_ -= handle->size();
    queued_.erase(handle);
}

const std::vector<asio::const_buffer>& OutQueue::take_batch() {
    writing_ = true;
    size_t bytes = 0;
    while (!queued_.empty() && batch_.size() < kBatchFrames && bytes < kBatchBytes) {
        bytes += queued_.front().size();
        queued_bytes_ -= queued_.front().size();
        batch_.push_back(std::move(queued_.front()));
        queued_.pop_front();
    }
    // Headers and small payloads go into shared chunks; big payloads are
    // referenced where they are. Buffers are built once the chunks stop
    // growing (a growing string moves its bytes).
    struct Piece {
        size_t chunk;  // index into chunks_, or npos for a payload
        const std::string* payload;
    };
    std::vector<Piece> pieces;
    auto chunk = [&]() -> std::string& {
        if (pieces.empty() || pieces.back().chunk == std::string::npos) {
            chunks_.emplace_back();
            pieces.push_back({chunks_.size() - 1, nullptr});
        }
        return chunks_[pieces.back().chunk];
    };
    for (const OutFrame& f : batch_) {
        chunk().append(f.header.data(), f.header_size());
        if (f.payload.size() < kCopyBelow) {
            chunk().append(f.payload);
        } else {
            pieces.push_back({std::string::npos, &f.payload});
        }
    }
    buffers_.clear();
    for (const Piece& p : pieces) {
        const std::string& bytes = p.payload ? *p.payload : chunks_[p.chunk];
        buffers_.push_back(asio::const_buffer(bytes.data(), bytes.size()));
    }
    return buffers_;
}

size_t OutQueue::finish_batch() {
    size_t bytes = 0;
    for (const OutFrame& f : batch_)
        bytes += f.size();
    batch_.clear();
    chunks_.clear();
    buffers_.clear();
    writing_ = false;
    return bytes;
}

size_t OutQueue::clear() {
    const size_t bytes = queued_bytes_;
    queued_.clear();
    queued_bytes_ = 0;
    return bytes;
}

}  // namespace tessel::cluster::detail
