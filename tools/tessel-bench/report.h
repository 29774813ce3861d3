// RunReport: everything one benchmark run measured and the context needed to
// trust and rerun it (machine, versions, exact commands, settings), written
// as JSON, as a Markdown table and as an SVG chart.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "load.h"

namespace tessel::bench {

struct MachineInfo {
    std::string cpu_model;
    int cores = 0;
    uint64_t ram_bytes = 0;
    std::string kernel;     // uname -sr
    std::string os;         // PRETTY_NAME of /etc/os-release
    double loadavg_1m = 0;  // at the start of the run
};

// Reads /proc/cpuinfo, /proc/meminfo, uname and /etc/os-release.
MachineInfo read_machine_info();

// One comparison line: system A's throughput over system B's on a phase.
struct Ratio {
    std::string key;        // workload.phase
    std::string numerator;  // system
    std::string denominator;
    double value = 0;
};

// One of issue 7's targets, measured.
struct TargetCheck {
    std::string target;    // what is asked
    std::string measured;  // the figure, or why it could not be measured
    std::string status;    // "met", "missed" or "not measured"
};

struct RunReport {
    std::string started_at;  // UTC, ISO 8601
    MachineInfo machine;
    std::map<std::string, std::string> versions;
    std::vector<std::string> commands;
    std::map<std::string, std::string> settings;
    // Per workload: feature -> "true"/"false" (and feature_error).
    std::map<std::string, std::map<std::string, std::string>> features;
    std::vector<PhaseResult> results;
    std::vector<std::string> notes;  // skipped systems, failures

    // Derived from results.
    std::vector<Ratio> ratios() const;
    std::vector<TargetCheck> targets() const;
    const PhaseResult* find(const std::string& key, const std::string& system) const;
};

std::string to_json(const RunReport& report);
std::string to_markdown(const RunReport& report);
// Two panels of grouped bars (log scale): throughput and p99 latency per
// workload phase and system.
std::string to_svg(const RunReport& report);

// JSON string escaping (quotes included), exposed for the tests.
std::string json_quote(const std::string& s);
// XML text escaping for SVG.
std::string xml_escape(const std::string& s);
// 1234567 -> "1.23M", 45210 -> "45.2k", 812 -> "812".
std::string short_number(double v);

}  // namespace tessel::bench
