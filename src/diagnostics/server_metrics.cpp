#include "diagnostics/server_metrics.h"

#include <map>
#include <string>

namespace tessel::diagnostics {

namespace {

constexpr ErrorCode kAllCodes[] = {
    ErrorCode::kServerError,   ErrorCode::kProtocolError,   ErrorCode::kBadCredentials,
    ErrorCode::kUnavailable,   ErrorCode::kOverloaded,      ErrorCode::kIsBootstrapping,
    ErrorCode::kTruncateError, ErrorCode::kWriteTimeout,    ErrorCode::kReadTimeout,
    ErrorCode::kReadFailure,   ErrorCode::kFunctionFailure, ErrorCode::kWriteFailure,
    ErrorCode::kSyntaxError,   ErrorCode::kUnauthorized,    ErrorCode::kInvalid,
    ErrorCode::kConfigError,   ErrorCode::kAlreadyExists,   ErrorCode::kUnprepared,
};
static_assert(std::size(kAllCodes) == 18);

size_t code_index(ErrorCode code) {
    for (size_t i = 0; i < std::size(kAllCodes); ++i) {
        if (kAllCodes[i] == code) return i;
    }
    return 0;  // unknown codes count as Server_error
}

}  // namespace

std::string_view request_type_name(RequestType type) {
    switch (type) {
        case RequestType::kStartup:
            return "STARTUP";
        case RequestType::kOptions:
            return "OPTIONS";
        case RequestType::kQuery:
            return "QUERY";
        case RequestType::kPrepare:
            return "PREPARE";
        case RequestType::kExecute:
            return "EXECUTE";
        case RequestType::kBatch:
            return "BATCH";
        case RequestType::kRegister:
            return "REGISTER";
        case RequestType::kAuthResponse:
            return "AUTH_RESPONSE";
        case RequestType::kOther:
            return "OTHER";
    }
    return "OTHER";
}

ServerMetrics::ServerMetrics(MetricsRegistry& registry) {
    for (size_t i = 0; i < kRequestTypes; ++i) {
        Labels labels{{"type", std::string(request_type_name(static_cast<RequestType>(i)))}};
        requests_[i] = &registry.counter("tessel_requests_total", "Requests by type.", labels);
        latency_[i] = &registry.histogram("tessel_request_latency_seconds",
                                          "Request latency, from decoded frame to queued "
                                          "response.",
                                          labels);
    }
    for (size_t i = 0; i < std::size(kAllCodes); ++i) {
        errors_[i] = &registry.counter("tessel_request_errors_total",
                                       "ERROR responses by protocol error code.",
                                       {{"code", std::string(error_code_name(kAllCodes[i]))}});
    }
    bytes_received_ =
        &registry.counter("tessel_bytes_received_total", "Frame bytes received from clients.");
    bytes_sent_ = &registry.counter("tessel_bytes_sent_total", "Frame bytes sent to clients.");
    connections_ = &registry.gauge("tessel_connections", "Open client connections.");
}

void ServerMetrics::request(RequestType type, uint64_t latency_micros,
                            std::optional<ErrorCode> error) {
    auto i = static_cast<size_t>(type);
    if (i >= kRequestTypes) i = static_cast<size_t>(RequestType::kOther);
    requests_[i]->inc();
    latency_[i]->observe_micros(latency_micros);
    if (error) errors_[code_index(*error)]->inc();
}

void add_partition_health_collector(MetricsRegistry& registry, const LargePartitionTracker& large,
                                    const HotPartitionsRegistry& hot, Clock clock) {
    if (!clock) clock = now_ms;
    registry.add_collector([&large, &hot, clock](CollectorSink& sink) {
        std::map<std::pair<std::string, std::string>, uint64_t> per_table;
        for (const LargePartitionRecord& r : large.records())
            ++per_table[{r.keyspace, r.table}];
        for (const auto& [key, n] : per_table) {
            sink.gauge("tessel_large_partitions", "Partitions over a size or rows warn threshold.",
                       {{"keyspace", key.first}, {"table", key.second}}, static_cast<double>(n));
        }
        const TimeMs now = clock();
        for (const auto& entry : hot.list()) {
            HotWindow w = entry.hot->previous(now, 1);
            const auto& writes = w.of(HotKind::kWrites).entries;
            double rate = writes.empty() ? 0
                                         : static_cast<double>(writes[0].count) * 1000.0 /
                                               static_cast<double>(w.length_ms);
            sink.gauge("tessel_hottest_partition_writes_per_second",
                       "Write rate of the hottest partition in the last complete window.",
                       {{"keyspace", entry.keyspace}, {"table", entry.table}}, rate);
        }
    });
}

}  // namespace tessel::diagnostics
