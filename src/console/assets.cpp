#include "console/assets.h"

namespace tessel::console {

const Asset* find_asset(std::string_view path) {
    for (const Asset& a : embedded_assets()) {
        if (path == a.path) return &a;
    }
    return nullptr;
}

}  // namespace tessel::console
