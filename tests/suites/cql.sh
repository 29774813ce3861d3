#!/usr/bin/env bash
# Approval files for CQL behaviour (tests/cql/*.cql against *.result).
exec bash "$(dirname "$0")/../cql/run.sh" "${1:-build}"
