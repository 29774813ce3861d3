#include "report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessel::bench {
namespace {

// The systems a Tessel row is compared with, per durability.
struct Pairing {
    const char* tessel;
    const char* postgres;
};
constexpr Pairing kPairings[] = {{"tessel", "postgres"}, {"tessel-batch", "postgres-sync"}};
constexpr const char* kRawSystems[] = {"rocksdb-1t", "rocksdb-2t"};

std::string num(double v) {
    if (!std::isfinite(v)) return "null";
    return fmt::format("{:.6g}", v);
}

std::string fixed(double v, int digits) {
    return fmt::format("{:.{}f}", v, digits);
}

std::string us(double v) {
    if (v >= 10000) return fmt::format("{:.1f} ms", v / 1000);
    if (v >= 1000) return fmt::format("{:.2f} ms", v / 1000);
    return fmt::format("{:.0f} µs", v);
}

void json_map(std::string* out, const std::map<std::string, std::string>& m) {
    *out += "{";
    bool first = true;
    for (const auto& [k, v] : m) {
        *out += (first ? "" : ", ") + json_quote(k) + ": ";
        // Figures and booleans stay JSON scalars; everything else a string.
        bool scalar = v == "true" || v == "false";
        if (!scalar && !v.empty()) {
            char* end = nullptr;
            std::strtod(v.c_str(), &end);
            scalar =
                end && *end == '\0' && v.find_first_not_of("0123456789.-e+") == std::string::npos;
        }
        *out += scalar ? v : json_quote(v);
        first = false;
    }
    *out += "}";
}

// Throughput of the best raw RocksDB run of `key` ("kv.write"/"kv.read").
const PhaseResult* best_raw(const RunReport& r, const std::string& key) {
    const PhaseResult* best = nullptr;
    for (const char* sys : kRawSystems) {
        const PhaseResult* p = r.find(key, sys);
        if (p && p->ops > 0 && (!best || p->ops_per_s > best->ops_per_s)) best = p;
    }
    return best;
}

TargetCheck ratio_target(const RunReport& r, const std::string& what, const std::string& key,
                         const PhaseResult* other, double want) {
    TargetCheck t;
    t.target = what;
    const PhaseResult* mine = r.find(key, "tessel");
    if (!mine || mine->ops == 0 || !other || other->ops_per_s <= 0) {
        t.measured = "not run";
        t.status = "not measured";
        return t;
    }
    double ratio = mine->ops_per_s / other->ops_per_s;
    t.measured = fmt::format("{:.2f}x ({} vs {} ops/s, {})", ratio, short_number(mine->ops_per_s),
                             short_number(other->ops_per_s), other->system);
    t.status = ratio >= want ? "met" : "missed";
    return t;
}

}  // namespace

const PhaseResult* RunReport::find(const std::string& key, const std::string& system) const {
    for (const auto& r : results)
        if (r.key() == key && r.system == system) return &r;
    return nullptr;
}

std::vector<Ratio> RunReport::ratios() const {
    std::vector<Ratio> out;
    for (const auto& r : results) {
        if (r.ops == 0) continue;
        for (const Pairing& p : kPairings) {
            if (r.system != p.tessel) continue;
            const PhaseResult* pg = find(r.key(), p.postgres);
            if (pg && pg->ops_per_s > 0) {
                out.push_back({r.key(), r.system, pg->system, r.ops_per_s / pg->ops_per_s});
            }
            // Raw RocksDB runs without fsync: compare the periodic-sync rows only.
            if (r.workload != "kv" || r.system != "tessel") continue;
            for (const char* raw : kRawSystems) {
                const PhaseResult* rk = find(r.key(), raw);
                if (rk && rk->ops_per_s > 0) {
                    out.push_back({r.key(), r.system, raw, r.ops_per_s / rk->ops_per_s});
                }
            }
        }
    }
    return out;
}

std::vector<TargetCheck> RunReport::targets() const {
    std::vector<TargetCheck> out;
    out.push_back(ratio_target(*this, "kv writes >= 2x PostgreSQL (synchronous_commit=off)",
                               "kv.write", find("kv.write", "postgres"), 2.0));
    out.push_back(ratio_target(*this, "kv writes >= 60% of raw RocksDB puts", "kv.write",
                               best_raw(*this, "kv.write"), 0.6));
    out.push_back(ratio_target(*this, "kv reads >= 1.5x PostgreSQL", "kv.read",
                               find("kv.read", "postgres"), 1.5));
    out.push_back(ratio_target(*this, "kv reads >= 60% of raw RocksDB gets", "kv.read",
                               best_raw(*this, "kv.read"), 0.6));
    for (const char* phase : {"write", "read"}) {
        TargetCheck t;
        t.target = fmt::format("kv {} p99 < 2 ms at 70% of peak", phase);
        const PhaseResult* p = find(fmt::format("kv.{}@70%", phase), "tessel");
        if (!p || p->ops == 0) {
            t.measured = "not run";
            t.status = "not measured";
        } else {
            t.measured =
                fmt::format("p99 {} at {} ops/s", us(p->p99_us), short_number(p->target_rate));
            if (p->ops_per_s < 0.95 * p->target_rate) {
                t.measured += fmt::format(" (schedule not kept: {} ops/s achieved)",
                                          short_number(p->ops_per_s));
            }
            t.status = p->p99_us < 2000 ? "met" : "missed";
        }
        out.push_back(t);
    }
    out.push_back(ratio_target(*this, "logistics latest-10 reads >= 1.5x PostgreSQL",
                               "logistics.latest10", find("logistics.latest10", "postgres"), 1.5));
    {
        const PhaseResult* kv = find("kv.write", "tessel");
        TargetCheck t = ratio_target(*this, "hotday with write sharding within 10% of kv writes",
                                     "", nullptr, 0.9);
        const PhaseResult* hot = nullptr;
        for (const auto& r : results)
            if (r.workload == "hotday" && r.phase.rfind("sharded", 0) == 0 && r.system == "tessel")
                hot = &r;
        if (kv && hot && kv->ops_per_s > 0 && hot->ops > 0) {
            double ratio = hot->ops_per_s / kv->ops_per_s;
            t.measured = fmt::format("{:.0f}% ({} vs {} ops/s)", ratio * 100,
                                     short_number(hot->ops_per_s), short_number(kv->ops_per_s));
            t.status = ratio >= 0.9 ? "met" : "missed";
        }
        out.push_back(t);
    }
    {
        TargetCheck t;
        t.target = "widepartition: server RSS growth < 64 MB while paging 1 GB";
        const PhaseResult* p = find("widepartition.page", "tessel");
        auto growth = p ? p->extra.find("rss_growth_mb")
                        : std::map<std::string, std::string>::const_iterator();
        if (!p || growth == p->extra.end()) {
            t.measured = "not run";
            t.status = "not measured";
        } else {
            double mb = std::strtod(growth->second.c_str(), nullptr);
            double scanned = p->mb_per_s * p->seconds;
            t.measured = fmt::format("{:.1f} MB growth while paging {:.0f} MB", mb, scanned);
            t.status = mb < 64 ? (scanned >= 1000 ? "met" : "met (smaller partition)") : "missed";
        }
        out.push_back(t);
    }
    return out;
}

std::string json_quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    out += fmt::format("\\u{:04x}", c);
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out + "\"";
}

std::string to_json(const RunReport& r) {
    std::string o = "{\n";
    o += "  \"started_at\": " + json_quote(r.started_at) + ",\n";
    const MachineInfo& m = r.machine;
    o += fmt::format(
        "  \"machine\": {{\"cpu_model\": {}, \"cores\": {}, \"ram_bytes\": {}, \"kernel\": {}, "
        "\"os\": {}, \"loadavg_1m_at_start\": {}}},\n",
        json_quote(m.cpu_model), m.cores, m.ram_bytes, json_quote(m.kernel), json_quote(m.os),
        num(m.loadavg_1m));
    o += "  \"versions\": ";
    json_map(&o, r.versions);
    o += ",\n  \"settings\": ";
    json_map(&o, r.settings);
    o += ",\n  \"commands\": [";
    for (size_t i = 0; i < r.commands.size(); ++i)
        o += (i ? ", " : "") + json_quote(r.commands[i]);
    o += "],\n  \"features\": {";
    bool first = true;
    for (const auto& [w, f] : r.features) {
        o += (first ? "" : ", ") + json_quote(w) + ": ";
        json_map(&o, f);
        first = false;
    }
    o += "},\n  \"results\": [\n";
    for (size_t i = 0; i < r.results.size(); ++i) {
        const PhaseResult& p = r.results[i];
        o += fmt::format(
            "    {{\"workload\": {}, \"phase\": {}, \"system\": {}, \"durability\": {}, "
            "\"connections\": {}, \"depth\": {}, \"target_rate\": {}, \"ops\": {}, "
            "\"errors\": {}, \"seconds\": {}, \"ops_per_s\": {}, \"rows_per_s\": {}, "
            "\"mb_per_s\": {}, \"latency_us\": {{\"mean\": {}, \"p50\": {}, \"p90\": {}, "
            "\"p99\": {}, \"p99.9\": {}, \"max\": {}}}, \"error\": {}, \"extra\": ",
            json_quote(p.workload), json_quote(p.phase), json_quote(p.system),
            json_quote(p.durability), p.connections, p.depth, num(p.target_rate), p.ops, p.errors,
            num(p.seconds), num(p.ops_per_s), num(p.rows_per_s), num(p.mb_per_s), num(p.mean_us),
            num(p.p50_us), num(p.p90_us), num(p.p99_us), num(p.p999_us), num(p.max_us),
            json_quote(p.error));
        json_map(&o, p.extra);
        o += std::string("}") + (i + 1 < r.results.size() ? "," : "") + "\n";
    }
    o += "  ],\n  \"ratios\": [";
    auto ratios = r.ratios();
    for (size_t i = 0; i < ratios.size(); ++i) {
        o += fmt::format(
            "{}\n    {{\"phase\": {}, \"numerator\": {}, \"denominator\": {}, "
            "\"throughput_ratio\": {}}}",
            i ? "," : "", json_quote(ratios[i].key), json_quote(ratios[i].numerator),
            json_quote(ratios[i].denominator), num(ratios[i].value));
    }
    o += "\n  ],\n  \"targets\": [";
    auto targets = r.targets();
    for (size_t i = 0; i < targets.size(); ++i) {
        o += fmt::format("{}\n    {{\"target\": {}, \"measured\": {}, \"status\": {}}}",
                         i ? "," : "", json_quote(targets[i].target),
                         json_quote(targets[i].measured), json_quote(targets[i].status));
    }
    o += "\n  ],\n  \"notes\": [";
    for (size_t i = 0; i < r.notes.size(); ++i)
        o += (i ? ", " : "") + json_quote(r.notes[i]);
    o += "]\n}\n";
    return o;
}

std::string to_markdown(const RunReport& r) {
    std::string o = "# tessel-bench results\n\n";
    const MachineInfo& m = r.machine;
    o += fmt::format(
        "Run started {} on {} ({} cores, {:.1f} GiB RAM), {}, {}; load average "
        "{:.2f} at start.\n\n",
        r.started_at, m.cpu_model, m.cores,
        static_cast<double>(m.ram_bytes) / (1024.0 * 1024 * 1024), m.kernel, m.os, m.loadavg_1m);
    o += "Versions:";
    for (const auto& [k, v] : r.versions)
        o += " " + k + " " + v + ";";
    o += "\n\nSettings:";
    for (const auto& [k, v] : r.settings)
        o += " " + k + "=" + v + ";";
    o += "\n\n## Throughput and latency\n\n";
    o += "| phase | system | durability | conns x depth | rate | ops/s | rows/s | MB/s | p50 | "
         "p90 | p99 | p99.9 | max | errors |\n";
    o += "|---|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
    for (const auto& p : r.results) {
        o += fmt::format(
            "| {} | {} | {} | {} x {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | "
            "{} |\n",
            p.key(), p.system, p.durability, p.connections, p.depth,
            p.target_rate > 0 ? short_number(p.target_rate) + "/s" : "max",
            short_number(p.ops_per_s), short_number(p.rows_per_s), fixed(p.mb_per_s, 1),
            us(p.p50_us), us(p.p90_us), us(p.p99_us), us(p.p999_us), us(p.max_us), p.errors);
    }
    auto ratios = r.ratios();
    if (!ratios.empty()) {
        o += "\n## Ratios (throughput)\n\n| phase | ratio | value |\n|---|---|--:|\n";
        for (const auto& x : ratios)
            o += fmt::format("| {} | {} / {} | {:.2f} |\n", x.key, x.numerator, x.denominator,
                             x.value);
    }
    o += "\n## Targets (issue 7)\n\n| target | measured | status |\n|---|---|---|\n";
    for (const auto& t : r.targets())
        o += fmt::format("| {} | {} | {} |\n", t.target, t.measured, t.status);
    bool extras = false;
    for (const auto& p : r.results) {
        if (p.extra.empty()) continue;
        if (!extras) o += "\n## Details\n\n";
        extras = true;
        o += "- " + p.key() + " (" + p.system + "):";
        for (const auto& [k, v] : p.extra)
            o += " " + k + "=" + v;
        o += "\n";
    }
    std::string features;
    for (const auto& [w, f] : r.features)
        for (const auto& [k, v] : f)
            features += "- " + w + ": " + k + " = " + v + "\n";
    if (!features.empty()) o += "\n## Server features used\n\n" + features;
    std::vector<std::string> errors;
    for (const auto& p : r.results)
        if (!p.error.empty()) errors.push_back(p.key() + " (" + p.system + "): " + p.error);
    if (!r.notes.empty() || !errors.empty()) {
        o += "\n## Notes\n\n";
        for (const auto& n : r.notes)
            o += "- " + n + "\n";
        for (const auto& e : errors)
            o += "- first error of " + e + "\n";
    }
    o += "\n## Commands\n\n```\n";
    for (const auto& c : r.commands)
        o += c + "\n";
    o += "```\n";
    return o;
}

}  // namespace tessel::bench
