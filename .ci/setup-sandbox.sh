#!/usr/bin/env bash
# Make the sandboxes usable on this machine (idempotent; fast when everything is there):
# docker.io, debootstrap and bubblewrap installed, dockerd running, skillbench-base:bookworm built.
# Needs root. See docs/sandbox.md.
set -euo pipefail
BASE_IMAGE="${SKILLBENCH_BASE_IMAGE:-skillbench-base:bookworm}"
SUITE="${SKILLBENCH_BASE_SUITE:-bookworm}"

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup-sandbox: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  echo "setup-sandbox: starting dockerd"
  nohup dockerd >/tmp/skillbench-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 || { echo "setup-sandbox: dockerd did not answer within 30 s (see /tmp/skillbench-dockerd.log)" >&2; exit 1; }
fi

if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "setup-sandbox: building $BASE_IMAGE (debootstrap --variant=minbase --include=python3 $SUITE)"
  root="$(mktemp -d /tmp/skillbench-rootfs-XXXXXX)"
  trap 'rm -rf "$root"' EXIT
  # python3 for the validators people write (skillbench's default image adds it otherwise).
  debootstrap --variant=minbase --include=python3 "$SUITE" "$root" >/tmp/skillbench-debootstrap.log 2>&1 \
    || { echo "setup-sandbox: debootstrap failed (see /tmp/skillbench-debootstrap.log)" >&2; exit 1; }
  tar -C "$root" -c . | docker import - "$BASE_IMAGE" >/dev/null
fi
echo "setup-sandbox: ok (docker $(docker info --format '{{.ServerVersion}}'), $(bwrap --version), $BASE_IMAGE present)"
