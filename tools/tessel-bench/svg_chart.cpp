// The SVG chart of a run: two panels of grouped bars on a log scale (the
// figures span several orders of magnitude: pages/s next to puts/s),
// throughput on top and p99 latency below, one group per workload phase and
// one colour per system. Hand-written SVG, no library.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report.h"

namespace tessel::bench {
namespace {

constexpr const char* kColours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                    "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

struct Panel {
    std::string title;
    std::string unit;
    double (*value)(const PhaseResult&);
};

double throughput(const PhaseResult& p) {
    return p.ops_per_s;
}
double p99_us(const PhaseResult& p) {
    return p.p99_us;
}

}  // namespace

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string short_number(double v) {
    double a = std::fabs(v);
    if (a >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
    if (a >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
    if (a >= 1e3) return fmt::format("{:.3g}k", v / 1e3);
    if (a >= 10 || a == 0) return fmt::format("{:.0f}", v);
    return fmt::format("{:.2g}", v);
}

std::string to_svg(const RunReport& report) {
    std::vector<std::string> groups, systems;
    for (const auto& p : report.results) {
        if (p.ops == 0) continue;
        if (std::find(groups.begin(), groups.end(), p.key()) == groups.end())
            groups.push_back(p.key());
        if (std::find(systems.begin(), systems.end(), p.system) == systems.end())
            systems.push_back(p.system);
    }
    const double left = 70, right = 20, panel_h = 260, top = 60, gap = 110;
    const double bar_w = 14, group_pad = 18;
    double group_w = static_cast<double>(std::max<size_t>(systems.size(), 1)) * bar_w + group_pad;
    double plot_w = std::max({400.0, static_cast<double>(groups.size()) * group_w,
                              static_cast<double>(systems.size()) * 120.0});
    double width = left + plot_w + right;
    double legend_h = 24;
    double height = top + 2 * panel_h + 2 * gap + legend_h;
    std::string o = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
        "font-family=\"sans-serif\" font-size=\"11\">\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{:.0f}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">tessel-bench {}</text>\n"
        "<text x=\"{:.0f}\" y=\"40\" fill=\"#555\">{} · {} cores · {}</text>\n",
        width, height, left, xml_escape(report.started_at), left,
        xml_escape(report.machine.cpu_model), report.machine.cores,
        xml_escape(report.machine.kernel));
    if (groups.empty()) {
        o += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no results</text>\n", left, top + 40);
        return o + "</svg>\n";
    }
    const Panel panels[] = {
        {"Throughput (ops/s, log scale; higher is better)", "ops/s", throughput},
        {"p99 latency (µs, log scale; lower is better)", "µs", p99_us}};
    for (int pi = 0; pi < 2; ++pi) {
        const Panel& panel = panels[pi];
        double y0 = top + pi * (panel_h + gap);  // panel top
        double base = y0 + panel_h;              // x axis
        double lo = 1e300, hi = 0;
        for (const auto& p : report.results) {
            double v = panel.value(p);
            if (p.ops == 0 || v <= 0) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        if (hi <= 0) continue;
        double dlo = std::floor(std::log10(lo)), dhi = std::ceil(std::log10(hi));
        if (dhi <= dlo) dhi = dlo + 1;
        auto y_of = [&](double v) { return base - (std::log10(v) - dlo) / (dhi - dlo) * panel_h; };
        o += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" font-size=\"13\">{}</text>\n", left,
                         y0 - 8, xml_escape(panel.title));
        for (double d = dlo; d <= dhi; d += 1) {
            double y = y_of(std::pow(10.0, d));
            o += fmt::format(
                "<line x1=\"{:.0f}\" y1=\"{:.1f}\" x2=\"{:.0f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n"
                "<text x=\"{:.0f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
                left, y, left + plot_w, y, left - 6, y + 4, short_number(std::pow(10.0, d)));
        }
        o += fmt::format(
            "<line x1=\"{:.0f}\" y1=\"{:.1f}\" x2=\"{:.0f}\" y2=\"{:.1f}\" stroke=\"#333\"/>\n",
            left, base, left + plot_w, base);
        for (size_t g = 0; g < groups.size(); ++g) {
            double gx = left + static_cast<double>(g) * group_w + group_pad / 2;
            for (size_t s = 0; s < systems.size(); ++s) {
                const PhaseResult* p = report.find(groups[g], systems[s]);
                if (!p || p->ops == 0 || panel.value(*p) <= 0) continue;
                double v = panel.value(*p);
                double x = gx + static_cast<double>(s) * bar_w;
                double y = std::min(y_of(v), base - 1);
                o += fmt::format(
                    "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.0f}\" height=\"{:.1f}\" "
                    "fill=\"{}\"><title>{} {}: {} {}</title></rect>\n",
                    x, y, bar_w - 2, base - y, kColours[s % std::size(kColours)],
                    xml_escape(groups[g]), xml_escape(systems[s]), short_number(v), panel.unit);
                o += fmt::format(
                    "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"8\" text-anchor=\"start\" "
                    "transform=\"rotate(-90 {:.1f} {:.1f})\">{}</text>\n",
                    x + bar_w / 2 + 2, y - 2, x + bar_w / 2 + 2, y - 2, short_number(v));
            }
            double cx = gx + static_cast<double>(systems.size()) * bar_w / 2;
            o += fmt::format(
                "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" "
                "transform=\"rotate(-35 {:.1f} {:.1f})\">{}</text>\n",
                cx, base + 14, cx, base + 14, xml_escape(groups[g]));
        }
    }
    double ly = height - legend_h / 2;
    for (size_t s = 0; s < systems.size(); ++s) {
        double x = left + static_cast<double>(s) * 120;
        o += fmt::format(
            "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
            "<text x=\"{:.0f}\" y=\"{:.0f}\">{}</text>\n",
            x, ly - 9, kColours[s % std::size(kColours)], x + 14, ly, xml_escape(systems[s]));
    }
    return o + "</svg>\n";
}

}  // namespace tessel::bench
