#!/usr/bin/env bash
# The spec linted by Redocly CLI with its recommended rules: zero errors, or this fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
./setup.sh
node_modules/.bin/redocly lint ../../openapi/v1.yaml --extends=recommended --format=stylish
