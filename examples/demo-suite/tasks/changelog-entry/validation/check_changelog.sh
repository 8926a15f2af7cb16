#!/usr/bin/env bash
# Validator: an Unreleased entry "- fix: ..." mentioning the empty config crash.
entry=$(awk '/^## \[Unreleased\]/{f=1;next} /^## /{f=0} f' CHANGELOG.md | grep -E '^- ' || true)
passed=(); failed=()
if [ -n "$entry" ]; then passed+=("entry_present"); else failed+=("entry_present: no entry under [Unreleased]"); fi
if echo "$entry" | grep -qE '^- fix: .*(empty|config)'; then passed+=("entry_format: '- fix: <summary>'"); else failed+=("entry_format: expected '- fix: <summary>' about the empty config crash"); fi
json() { local first=1; printf '['; for x in "$@"; do [ $first = 1 ] || printf ','; first=0; printf '"%s"' "${x//\"/\\\"}"; done; printf ']'; }
echo "{\"passed\": $(json "${passed[@]}"), \"failed\": $(json "${failed[@]}")}"
