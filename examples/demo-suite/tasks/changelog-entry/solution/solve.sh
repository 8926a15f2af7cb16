#!/usr/bin/env bash
# Reference solution (skillbench check): the entry under [Unreleased], in the house format.
set -euo pipefail
awk '{ print } /^## \[Unreleased\]/ { print ""; print "- fix: no crash when the config file is empty" }' CHANGELOG.md > CHANGELOG.md.new
mv CHANGELOG.md.new CHANGELOG.md
