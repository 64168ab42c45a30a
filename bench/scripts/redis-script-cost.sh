#!/usr/bin/env bash
# What a Lua script costs redis-server, against the plain commands a naive lock sends: the floor
# under issue 21's row `throughput.redis-cpu.ratio.auto-pipelining` (DataDriver's scripts
# against the naive lock's commands, both pipelined). Starts a redis-server of its own
# (redis-server and redis-benchmark on PATH) and sends each command with redis-benchmark,
# pipelined 64 deep on 4 connections (as auto-pipelining batches), 400,000 times, over 100,000
# keys; reads redis-server's CPU (INFO cpu) around each.
#   bench/scripts/redis-script-cost.sh [record bytes, default 200] [rounds, default 3]
# Prints redis-server's µs per call of each (the median of the rounds), then two cycles:
# the naive lock's (SET NX PX, GET, SET, DEL) and the least a cycle of three compare-and-set
# scripts costs (each reads the version and writes version and record: `min-cas`, which skips
# the scripts' other branches), and their ratio.
set -euo pipefail
bytes=${1:-200} rounds=${2:-3}
tmp=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
redis-server --port "$port" --save '' --appendonly no --daemonize no >"$tmp/redis.log" 2>&1 &
redis=$!
cleanup() { kill "$redis" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
cli() { redis-cli -p "$port" "$@"; }
for _ in $(seq 1 50); do cli PING >/dev/null 2>&1 && break; sleep 0.1; done
record=$(head -c "$bytes" /dev/zero | tr '\0' 'r')
body="local v = redis.call('HGET', KEYS[1], 'version') if v == ARGV[2] then return 1 end redis.call('HSET', KEYS[1], 'version', ARGV[2], 'record', ARGV[3])"
number=$(cli SCRIPT LOAD "$body return 1")
table=$(cli SCRIPT LOAD "$body return {1}")
empty=$(cli SCRIPT LOAD "return 1")
calls=400000
cpu() { cli INFO cpu | awk -F: '/^used_cpu_(sys|user):/ { s += $2 } END { printf "%.6f", s }'; }
# µs of redis-server's CPU per call of the command given.
per_call() {
  local before after
  before=$(cpu)
  redis-benchmark -p "$port" -q -n "$calls" -P "${PIPELINE:-64}" -c "${CONNECTIONS:-4}" -r 100000 "$@" >/dev/null 2>&1
  after=$(cpu)
  awk -v a="$before" -v b="$after" -v n="$calls" 'BEGIN { printf "%.2f", (b - a) * 1e6 / n }'
}
declare -A figures
names=(set-nx get set del empty-script min-cas min-cas-table)
for _ in $(seq 1 "$rounds"); do
  figures[set-nx]+=" $(per_call SET lock:__rand_int__ 0123456789abcdef0123456789abcdef PX 10000 NX)"
  figures[get]+=" $(per_call GET data:__rand_int__)"
  figures[set]+=" $(per_call SET data:__rand_int__ "$record")"
  figures[del]+=" $(per_call DEL lock:__rand_int__)"
  figures[empty-script]+=" $(per_call EVALSHA "$empty" 0)"
  figures[min-cas]+=" $(per_call EVALSHA "$number" 1 record:__rand_int__ seen v__rand_int__ "$record")"
  figures[min-cas-table]+=" $(per_call EVALSHA "$table" 1 record:__rand_int__ seen v__rand_int__ "$record")"
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
declare -A med
echo "redis-server µs per call (median of $rounds rounds; record $bytes bytes; $(redis-server --version | grep -o 'v=[^ ]*'))"
for name in "${names[@]}"; do
  med[$name]=$(echo "${figures[$name]}" | median)
  printf '  %-14s %6s   (%s)\n' "$name" "${med[$name]}" "${figures[$name]# }"
done
awk -v s="${med[set-nx]}" -v g="${med[get]}" -v t="${med[set]}" -v d="${med[del]}" \
  -v c="${med[min-cas]}" 'BEGIN {
    naive = s + g + t + d; scripts = 3 * c
    printf "naive lock cycle (SET NX PX + GET + SET + DEL): %.2f µs\n", naive
    printf "three least compare-and-set scripts:            %.2f µs\n", scripts
    printf "ratio: %.2f\n", scripts / naive
  }'
