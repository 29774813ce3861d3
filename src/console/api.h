// ConsoleApi: the console's JSON endpoints, answered from the node's data
// without HTTP (console_server.cpp maps GET /api/<name> onto them, so they are
// tested on their own). Each answers a status and a JSON body; a bad
// parameter is 400 and an unknown table 404, with {"error": "..."}.
//
//   tablets  ?table=ks.t            nodes, each table's tablets and replicas,
//                                   and the splits/merges seen
//   heatmap  ?table=&metric=&since= columns of tablet bands over time
//   hot      ?table=&kind=&limit=   hot partitions (top-k, error bounds)
//   large    ?table=                partitions over a size or rows threshold
//   advice   ?table=                the advisor's advice and statements
#pragma once

#include <map>
#include <string>

#include "console/heatmap_history.h"
#include "console/tablet_changes.h"
#include "tessel/database.h"

namespace tessel::console {

struct ApiResponse {
    int status = 200;
    std::string body;  // JSON
};

using ApiParams = std::multimap<std::string, std::string>;

class ConsoleApi {
  public:
    // Every argument must outlive the api.
    ConsoleApi(Database& db, const HeatmapHistory& history, const TabletChanges& changes);

    // The endpoint `name` ("tablets", "heatmap", ...); 404 for another name.
    ApiResponse handle(const std::string& name, const ApiParams& params) const;

    ApiResponse tablets(const ApiParams& params) const;
    ApiResponse heatmap(const ApiParams& params) const;
    ApiResponse hot(const ApiParams& params) const;
    ApiResponse large(const ApiParams& params) const;
    ApiResponse advice(const ApiParams& params) const;

  private:
    Database& db_;
    const HeatmapHistory& history_;
    const TabletChanges& changes_;
};

// The heat map's time range in ms: seconds ("3600"), or with a unit ("90s",
// "15m", "1h", "1d"), from 1 s to the history's reach (a day); or a point in
// time, ms since the epoch (13 digits or more: "1717228800000"), within the
// day before `now`. nullopt when malformed or out of reach.
std::optional<int64_t> parse_since_ms(const std::string& text, int64_t now_ms);

}  // namespace tessel::console
