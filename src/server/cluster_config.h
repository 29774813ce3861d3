// The cluster settings of tesseld's config file (ClusterOptions):
//
//   etcd_endpoints: http://127.0.0.1:2379,http://127.0.0.2:2379
//                                       (or a `- url` list); none: one node
//   storage_port: 7000                  internode messages
//   dc: datacenter1                     this node's data centre and rack
//   rack: rack1
//   num_tokens: 16                      ring tokens taken at the first join
//   etcd_lease_ttl_in_s: 10             down past this without a keep-alive
//   internode_failure_timeout_in_ms: 5000
//   internode_messaging_threads: 1
//   max_hint_window_in_ms: 10800000     no hints for a node down longer
//   server_encryption_options:          internode TLS (PEM files)
//     internode_encryption: all         (or none)
//     keystore: /etc/tessel/node.pem    certificate chain
//     private_key: /etc/tessel/node.key
//     truststore: /etc/tessel/ca.pem    CA that signs every node's certificate
//     require_client_auth: true
//
// The listen address (`listen_address` / --listen) is where clients and
// other nodes reach this node.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "tessel/database.h"

namespace tessel::server {

// Applies `key: value` when key is a cluster setting (*known = true);
// Config_error naming the line for a bad value. *known = false otherwise.
Status apply_cluster_setting(int line, const std::string& key, const std::string& value,
                             ClusterOptions* cluster, bool* known);

// One `key: value` line of the server_encryption_options mapping.
Status apply_internode_tls_option(int line, const std::string& key, const std::string& value,
                                  ClusterOptions* cluster);

// "a,b , c" -> {"a", "b", "c"}; empty items dropped.
std::vector<std::string> split_list(std::string_view value);

}  // namespace tessel::server
