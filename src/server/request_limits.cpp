#include "server/request_limits.h"

#include <string>

namespace tessel::server {

InFlightRequests::InFlightRequests(std::shared_ptr<RequestLimits> limits)
    : limits_(std::move(limits)) {}

InFlightRequests::~InFlightRequests() {
    release_all();
}

Status InFlightRequests::admit(size_t bytes) {
    if (count() >= limits_->max_requests_per_connection) {
        return Status(ErrorCode::kOverloaded,
                      "Too many requests in flight on this connection (limit " +
                          std::to_string(limits_->max_requests_per_connection) +
                          ", native_transport_max_requests_per_connection); read the responses "
                          "before sending more");
    }
    size_t total = limits_->request_bytes.fetch_add(bytes) + bytes;
    // One request is always admitted when nothing else is outstanding, so a
    // single large frame (bounded by the frame size limit) can still run.
    if (total > limits_->max_request_bytes && total != bytes) {
        limits_->request_bytes.fetch_sub(bytes);
        return Status(ErrorCode::kOverloaded,
                      "Server overloaded: " + std::to_string(total - bytes) +
                          " bytes of requests in flight (limit " +
                          std::to_string(limits_->max_request_bytes) +
                          ", native_transport_max_concurrent_requests_in_bytes)");
    }
    admitted_.n += 1;
    admitted_.bytes += bytes;
    return Status::ok();
}

void InFlightRequests::move(Stage* from, Stage* to) {
    to->n += from->n;
    to->bytes += from->bytes;
    *from = Stage{};
}

void InFlightRequests::deferred(size_t bytes) {
    admitted_.n -= 1;
    admitted_.bytes -= bytes;
    deferred_.n += 1;
    deferred_.bytes += bytes;
}

void InFlightRequests::finished(size_t bytes) {
    deferred_.n -= 1;
    deferred_.bytes -= bytes;
    queued_.n += 1;
    queued_.bytes += bytes;
}

void InFlightRequests::queued() {
    move(&admitted_, &queued_);
}

void InFlightRequests::writing() {
    move(&queued_, &writing_);
}

void InFlightRequests::written() {
    release(&writing_);
}

void InFlightRequests::release(Stage* stage) {
    limits_->request_bytes.fetch_sub(stage->bytes);
    *stage = Stage{};
}

void InFlightRequests::release_all() {
    release(&admitted_);
    release(&deferred_);
    release(&queued_);
    release(&writing_);
}

}  // namespace tessel::server
