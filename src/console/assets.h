// The console's static files (pages, script, style, Apache ECharts), built
// into tesseld: scripts/console-assets.sh installs ECharts with npm and
// embed_assets.py turns the files into a generated source at build time, so
// the console needs no network access and no CDN.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace tessel::console {

struct Asset {
    const char* path;          // "/", "/login", "/assets/console.js", ...
    const char* content_type;  // "text/html; charset=utf-8", ...
    const unsigned char* data;
    size_t size;

    std::string_view bytes() const { return {reinterpret_cast<const char*>(data), size}; }
};

// Every embedded asset (defined in the generated console_assets.cpp).
const std::vector<Asset>& embedded_assets();

// The asset served at `path`, or null.
const Asset* find_asset(std::string_view path);

}  // namespace tessel::console
