#include "common/status.h"

#include <fmt/format.h>

namespace tessel {

std::string_view error_code_name(ErrorCode code) {
    switch (code) {
        case ErrorCode::kServerError:
            return "Server_error";
        case ErrorCode::kProtocolError:
            return "Protocol_error";
        case ErrorCode::kBadCredentials:
            return "Bad_credentials";
        case ErrorCode::kUnavailable:
            return "Unavailable";
        case ErrorCode::kOverloaded:
            return "Overloaded";
        case ErrorCode::kIsBootstrapping:
            return "Is_bootstrapping";
        case ErrorCode::kTruncateError:
            return "Truncate_error";
        case ErrorCode::kWriteTimeout:
            return "Write_timeout";
        case ErrorCode::kReadTimeout:
            return "Read_timeout";
        case ErrorCode::kReadFailure:
            return "Read_failure";
        case ErrorCode::kFunctionFailure:
            return "Function_failure";
        case ErrorCode::kWriteFailure:
            return "Write_failure";
        case ErrorCode::kSyntaxError:
            return "Syntax_error";
        case ErrorCode::kUnauthorized:
            return "Unauthorized";
        case ErrorCode::kInvalid:
            return "Invalid";
        case ErrorCode::kConfigError:
            return "Config_error";
        case ErrorCode::kAlreadyExists:
            return "Already_exists";
        case ErrorCode::kUnprepared:
            return "Unprepared";
    }
    return "Unknown_error";
}

std::string Status::to_string() const {
    if (is_ok()) return "OK";
    return fmt::format("{}: {}", error_code_name(code()), message());
}

}  // namespace tessel
