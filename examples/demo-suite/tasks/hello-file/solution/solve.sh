#!/usr/bin/env bash
# Reference solution (skillbench check): the house greeting.
set -euo pipefail
printf 'Hello, skillbench!\n' > hello.txt
