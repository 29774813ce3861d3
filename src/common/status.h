// Status and Result: how every fallible function reports failure.
//
// Error codes are the CQL native protocol error codes, so an error produced
// anywhere (parser, schema, storage) travels unchanged to the ERROR frame the
// server sends. No exception crosses a module boundary; bad input never aborts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tessel {

enum class ErrorCode : int32_t {
    kServerError = 0x0000,
    kProtocolError = 0x000A,
    kBadCredentials = 0x0100,
    kUnavailable = 0x1000,
    kOverloaded = 0x1001,
    kIsBootstrapping = 0x1002,
    kTruncateError = 0x1003,
    kWriteTimeout = 0x1100,
    kReadTimeout = 0x1200,
    kReadFailure = 0x1300,
    kFunctionFailure = 0x1400,
    kWriteFailure = 0x1500,
    kSyntaxError = 0x2000,
    kUnauthorized = 0x2100,
    kInvalid = 0x2200,
    kConfigError = 0x2300,
    kAlreadyExists = 0x2400,
    kUnprepared = 0x2500,
};

// The protocol's name for a code ("Invalid", "Syntax_error", ...).
std::string_view error_code_name(ErrorCode code);

class Status {
  public:
    Status() = default;  // OK
    Status(ErrorCode code, std::string message) : error_(Error{code, std::move(message)}) {}

    static Status ok() { return {}; }
    static Status invalid(std::string m) { return {ErrorCode::kInvalid, std::move(m)}; }
    static Status syntax(std::string m) { return {ErrorCode::kSyntaxError, std::move(m)}; }
    static Status server(std::string m) { return {ErrorCode::kServerError, std::move(m)}; }
    static Status protocol(std::string m) { return {ErrorCode::kProtocolError, std::move(m)}; }
    static Status config(std::string m) { return {ErrorCode::kConfigError, std::move(m)}; }

    bool is_ok() const { return !error_.has_value(); }
    explicit operator bool() const { return is_ok(); }
    // Precondition for code() and message(): !is_ok().
    ErrorCode code() const { return error_->code; }
    const std::string& message() const { return error_->message; }

    // Extra fields some errors carry on the wire (Already_exists: keyspace and
    // table; Unprepared: the statement id).
    std::string detail1;
    std::string detail2;

    // What replicas did, for Unavailable (required = block_for, alive =
    // received), Write/Read_timeout and Write/Read_failure.
    struct Replicas {
        uint16_t consistency = 0x0001;
        int32_t received = 0;
        int32_t block_for = 0;
        int32_t failures = 0;
        bool data_present = false;
    };
    std::optional<Replicas> replicas;

    std::string to_string() const;

  private:
    struct Error {
        ErrorCode code;
        std::string message;
    };
    std::optional<Error> error_;
};

// Result<T>: a value or a failed Status. Accessing value() of an error (or
// status() of a value) is a programming error.
template <typename T>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
    Result(Status status) : v_(std::move(status)) {}  // NOLINT: implicit by design

    bool is_ok() const { return v_.index() == 0; }
    explicit operator bool() const { return is_ok(); }

    T& value() & { return std::get<0>(v_); }
    const T& value() const& { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Status& status() const& { return std::get<1>(v_); }
    Status&& status() && { return std::get<1>(std::move(v_)); }

  private:
    std::variant<T, Status> v_;
};

}  // namespace tessel

// Propagate a failed Status or Result to the caller.
#define TESSEL_CONCAT_INNER(a, b) a##b
#define TESSEL_CONCAT(a, b) TESSEL_CONCAT_INNER(a, b)
#define TESSEL_RETURN_IF_ERROR(expr)                               \
    do {                                                           \
        auto&& _st = (expr);                                       \
        if (!_st.is_ok()) return ::tessel::detail::status_of(_st); \
    } while (0)
#define TESSEL_ASSIGN_OR_RETURN(lhs, expr)                         \
    auto TESSEL_CONCAT(_res_, __LINE__) = (expr);                  \
    if (!TESSEL_CONCAT(_res_, __LINE__).is_ok())                   \
        return std::move(TESSEL_CONCAT(_res_, __LINE__)).status(); \
    lhs = std::move(TESSEL_CONCAT(_res_, __LINE__)).value()

// The same inside a coroutine (Task<Status> / Task<Result<T>>), where a
// plain return is not allowed.
// (By value: g++ 12 mishandles a reference bound to a co_await temporary.)
#define TESSEL_CO_RETURN_IF_ERROR(expr)                               \
    do {                                                              \
        auto _st = (expr);                                            \
        if (!_st.is_ok()) co_return ::tessel::detail::status_of(_st); \
    } while (0)
#define TESSEL_CO_ASSIGN_OR_RETURN(lhs, expr)                         \
    auto TESSEL_CONCAT(_res_, __LINE__) = (expr);                     \
    if (!TESSEL_CONCAT(_res_, __LINE__).is_ok())                      \
        co_return std::move(TESSEL_CONCAT(_res_, __LINE__)).status(); \
    lhs = std::move(TESSEL_CONCAT(_res_, __LINE__)).value()

namespace tessel::detail {
inline Status status_of(const Status& s) {
    return s;
}
template <typename T>
Status status_of(const Result<T>& r) {
    return r.status();
}
}  // namespace tessel::detail
