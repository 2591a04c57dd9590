#!/usr/bin/env bash
# Provisions what the Testcontainers integration tests need on a machine that has no image registry:
# a Docker engine (Debian's docker.io, started here if none answers) and the locally built
# apache/kafka-compatible broker images (docker/test-broker/build-image.sh): one of the pom's kafka.version, one of
# its kafka.older-broker.version and one of its kafka.previous-broker.version.
#
#   provision-docker.sh up   STATE_DIR   exit 0: ready, the image names are in STATE_DIR/image,
#                                        STATE_DIR/older-image and STATE_DIR/previous-image
#                                        exit 1: not ready, the reason is in STATE_DIR/skip-reason
#   provision-docker.sh down STATE_DIR   stops whatever `up` started (nothing else)
#
# Non-interactive (CI has no stdin) and bounded in time. On failure `up` leaves no engine it started running, and
# the caller (.ci/run) runs the tests anyway: every container test then finds no engine and, through
# @ContainerTest (DockerRequirement), FAILS with the reason from STATE_DIR/skip-reason under CI=true, or is
# skipped with it otherwise; .ci/run prints the reason and, under CI=true, exits non-zero.
set -uo pipefail

readonly ROOT="$(cd "$(dirname "$0")/.." && pwd)"
readonly APT_TIMEOUT_S="${GDA_APT_TIMEOUT_S:-420}"
readonly DOCKERD_START_TIMEOUT_S="${GDA_DOCKERD_START_TIMEOUT_S:-60}"
readonly IMAGE_BUILD_TIMEOUT_S="${GDA_IMAGE_BUILD_TIMEOUT_S:-420}"

log() { printf '[provision-docker] %s\n' "$*"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

fail() {
  printf '%s\n' "$*" > "$STATE/skip-reason"
  log "giving up: $*"
  stop_started_engine
  exit 1
}

pom_property() { sed -n "s:.*<$1>\\(.*\\)</$1>.*:\\1:p" "$ROOT/pom.xml" | head -n 1; }

engine_answers() { timeout 10 docker info > /dev/null 2>&1; }

# Installs whatever of docker.io / busybox-static is missing with one `apt-get update`.
install_packages() {
  local missing=()
  command -v dockerd > /dev/null 2>&1 || missing+=(docker.io)
  [[ -x /bin/busybox ]] || missing+=(busybox-static)
  if ((${#missing[@]} == 0)); then
    log "packages present (dockerd, busybox)"
    return 0
  fi
  local t0; t0="$(now)"
  log "installing ${missing[*]} (apt-get update once, then install)"
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d 101 keeps the package scripts from trying to start services: we start dockerd ourselves.
  local policy=/usr/sbin/policy-rc.d created_policy=0
  if [[ ! -e "$policy" ]]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy" && created_policy=1
  fi
  local rc=0
  timeout "$APT_TIMEOUT_S" apt-get update -q > "$STATE/apt.log" 2>&1 < /dev/null || rc=$?
  if ((rc == 0)); then
    timeout "$APT_TIMEOUT_S" apt-get install -y -q --no-install-recommends "${missing[@]}" \
      >> "$STATE/apt.log" 2>&1 < /dev/null || rc=$?
  fi
  ((created_policy)) && rm -f "$policy"
  log "timing: apt install of ${missing[*]} took $(elapsed "$t0") s (exit $rc)"
  ((rc == 0)) || fail "apt-get could not install ${missing[*]} (exit $rc, see $STATE/apt.log)"
}

start_engine() {
  if engine_answers; then
    log "a Docker engine already answers; using it (and leaving it running)"
    return 0
  fi
  command -v dockerd > /dev/null 2>&1 || fail "no dockerd binary"
  local t0; t0="$(now)"
  # No bridge and no iptables: containers use host networking only, so all traffic stays on 127.0.0.1.
  setsid dockerd --bridge=none --iptables=false --ip6tables=false \
    > "$STATE/dockerd.log" 2>&1 < /dev/null &
  echo $! > "$STATE/dockerd.pid"
  local deadline=$((SECONDS + DOCKERD_START_TIMEOUT_S))
  until engine_answers; do
    if ! kill -0 "$(cat "$STATE/dockerd.pid")" 2> /dev/null; then
      fail "dockerd exited during start-up: $(tail -n 3 "$STATE/dockerd.log" | tr '\n' ' ')"
    fi
    ((SECONDS < deadline)) || fail "dockerd did not answer within ${DOCKERD_START_TIMEOUT_S} s (see $STATE/dockerd.log)"
    sleep 0.5
  done
  log "timing: dockerd start took $(elapsed "$t0") s (server $(docker version --format '{{.Server.Version}}' 2> /dev/null))"
}

build_image() {
  local kafka_version="$1" state_file="$2"
  local t0; t0="$(now)"
  local image
  if ! image="$(KAFKA_VERSION="$kafka_version" timeout "$IMAGE_BUILD_TIMEOUT_S" \
      bash "$ROOT/docker/test-broker/build-image.sh" 2> "$STATE/image-build-$kafka_version.log" < /dev/null)"; then
    fail "broker image build (Kafka $kafka_version) failed (see $STATE/image-build-$kafka_version.log:" \
      "$(tail -n 2 "$STATE/image-build-$kafka_version.log" | tr '\n' ' '))"
  fi
  printf '%s\n' "$image" > "$STATE/$state_file"
  log "timing: broker image $image ready in $(elapsed "$t0") s"
}

stop_started_engine() {
  [[ -f "$STATE/dockerd.pid" ]] || return 0
  local pid; pid="$(cat "$STATE/dockerd.pid")"
  if kill -0 "$pid" 2> /dev/null; then
    # Containers of an engine we started are ours; remove them so dockerd stops promptly.
    local ids; ids="$(timeout 20 docker ps -aq 2> /dev/null)"
    [[ -n "$ids" ]] && timeout 60 docker rm -f $ids > /dev/null 2>&1
    kill -TERM "$pid" 2> /dev/null
    local deadline=$((SECONDS + 30))
    while kill -0 "$pid" 2> /dev/null && ((SECONDS < deadline)); do sleep 0.5; done
    if kill -0 "$pid" 2> /dev/null; then
      log "dockerd $pid did not stop within 30 s; killing it"
      kill -KILL "$pid" 2> /dev/null
    fi
    log "stopped the dockerd ($pid) started by this run"
  fi
  rm -f "$STATE/dockerd.pid"
}

main() {
  local cmd="${1:-}"
  STATE="${2:-}"
  if [[ -z "$STATE" || ( "$cmd" != up && "$cmd" != down ) ]]; then
    echo "usage: $0 up|down STATE_DIR" >&2
    exit 2
  fi
  mkdir -p "$STATE"
  case "$cmd" in
    up)
      rm -f "$STATE/skip-reason" "$STATE/image" "$STATE/older-image" "$STATE/previous-image"
      [[ "$(id -u)" == 0 ]] || command -v dockerd > /dev/null 2>&1 || engine_answers \
        || fail "not root and no Docker engine installed"
      local t0; t0="$(now)"
      install_packages
      start_engine
      build_image "$(pom_property kafka.version)" image
      # The oldest broker line the suite runs against (OlderBrokerContainerIT): clusters are often older than the clients.
      build_image "$(pom_property kafka.older-broker.version)" older-image
      # The line before the clients' own (PreviousBrokerContainerIT): the group protocol without the size bound.
      build_image "$(pom_property kafka.previous-broker.version)" previous-image
      log "timing: provisioning total $(elapsed "$t0") s"
      ;;
    down)
      stop_started_engine
      ;;
  esac
}

main "$@"
