#!/usr/bin/env bash
# Times convertpromote's conversions under the onnx rules against ONNX Runtime 1.30's Cast, one
# thread each, on the same bytes (BenchmarkCast in oracle/onnxruntime), and prints a Markdown
# table: per Cast, the nanoseconds per element of both and the library's speed over ONNX
# Runtime's at 1 Ki, 16 Ki, 256 Ki and 4 Mi elements, each the median of the rounds.
#
#   bash docs/perf/onnxruntime.sh                  # 5 rounds, every Cast
#   ROUNDS=7 CPU=1 bash docs/perf/onnxruntime.sh    # 7 rounds, pinned to CPU 1 (taskset)
#   BENCH='f32-f8e4m3' bash docs/perf/onnxruntime.sh # only the Casts whose name matches
#
# Settings (environment): ROUNDS (5), BENCHTIME (go test -benchtime of each measurement, 20ms),
# CPU (a CPU list for taskset; unset: no pinning), BENCH (a pattern for the Cast names, as in
# -bench BenchmarkCast/BENCH/), RAW (file for the raw benchmark output; default a temporary file).
# A round runs every Cast once, ONNX Runtime and the library one after the other at each size;
# the rounds repeat the whole sequence, so that a change in the machine's load falls on both.
# ONNX Runtime's CPU library is installed by .ci/onnxruntime (npm package onnxruntime-node).
set -euo pipefail
cd "$(dirname "$0")/../.."

rounds=${ROUNDS:-5}
benchtime=${BENCHTIME:-20ms}
pattern=${BENCH:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
raw=${RAW:-$tmp/raw.txt}
: >"$raw"

lib=$(bash .ci/onnxruntime)
(cd oracle/onnxruntime && go test -c -o "$tmp/onnxruntime.test" .)

pin=()
if [ -n "${CPU:-}" ]; then pin=(taskset -c "$CPU"); fi
for r in $(seq 1 "$rounds"); do
  echo "round $r of $rounds" >&2
  (cd oracle/onnxruntime && ONNXRUNTIME_SHARED_LIBRARY_PATH="$lib" "${pin[@]}" "$tmp/onnxruntime.test" \
    -test.run '^$' -test.bench "^BenchmarkCast\$/$pattern/" -test.benchtime "$benchtime" -test.count 1) >>"$raw"
done
if ! grep -q '^BenchmarkCast/.*ns/elem' "$raw"; then
  cat "$raw" >&2
  echo "no BenchmarkCast results" >&2
  exit 1
fi

cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
ort_version=$(sed -n 's/^ *"version": "\(.*\)".*/\1/p' "${lib%/bin/*}/package.json" | head -1)
echo "CPU: ${cpu:-unknown} ($(nproc) CPUs available${CPU:+, pinned to $CPU}); ONNX Runtime ${ort_version:-?}, $(go env GOVERSION); $rounds rounds, -benchtime $benchtime; medians."
echo
echo "Command: ${ROUNDS:+ROUNDS=$ROUNDS }${BENCHTIME:+BENCHTIME=$BENCHTIME }${CPU:+CPU=$CPU }${BENCH:+BENCH='$BENCH' }bash docs/perf/onnxruntime.sh"
echo
# Lines look like: BenchmarkCast/f32-f8e4m3,sat=0/16Ki/ort[-P]  N  ns/op  MB/s  X ns/elem
awk '
function fmtns(v) {
  if (v >= 100) return sprintf("%.0f", v)
  if (v >= 10) return sprintf("%.1f", v)
  if (v >= 1) return sprintf("%.2f", v)
  return sprintf("%.3f", v)
}
function fmtratio(v) {
  if (v >= 100) return sprintf("%.0f", v)
  if (v >= 10) return sprintf("%.1f", v)
  return sprintf("%.2f", v)
}
function median(key,    n, i, j, t, a) {
  n = cnt[key]
  if (n == 0) return -1
  for (i = 1; i <= n; i++) a[i] = val[key, i]
  for (i = 2; i <= n; i++) {
    t = a[i]
    for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
    a[j + 1] = t
  }
  if (n % 2) return a[(n + 1) / 2]
  return (a[n / 2] + a[n / 2 + 1]) / 2
}
# A Cast name as a table cell: f32-f8e4m3,sat=0 → "f32 → f8e4m3 saturate=0".
function label(c,    s) {
  s = c
  sub(/-/, " → ", s)
  gsub(/,sat=/, " saturate=", s)
  gsub(/,round=/, " round_mode=", s)
  return s
}
/^BenchmarkCast\// && /ns\/elem/ {
  split($1, p, "/")
  impl = p[4]; sub(/-[0-9]+$/, "", impl)
  c = p[2]; size = p[3]
  v = ""
  for (i = 2; i <= NF; i++) if ($i == "ns/elem") v = $(i - 1)
  if (v == "") next
  if (!(c in seen)) { seen[c] = 1; order[++ncast] = c }
  key = c SUBSEP size SUBSEP impl
  val[key, ++cnt[key]] = v + 0
}
END {
  nsize = split("1Ki 16Ki 256Ki 4Mi", sizes, " ")
  print "| Cast (`--rules onnx`) | ns per element, this library: 1 Ki · 16 Ki · 256 Ki · 4 Mi | ns per element, ONNX Runtime | this library / ONNX Runtime (speed) |"
  print "| --- | --- | --- | --- |"
  for (k = 1; k <= ncast; k++) {
    c = order[k]
    l = ""; o = ""; q = ""
    for (s = 1; s <= nsize; s++) {
      sep = (s > 1) ? " · " : ""
      ml = median(c SUBSEP sizes[s] SUBSEP "lib")
      mo = median(c SUBSEP sizes[s] SUBSEP "ort")
      l = l sep (ml < 0 ? "–" : fmtns(ml))
      o = o sep (mo < 0 ? "–" : fmtns(mo))
      q = q sep (ml <= 0 || mo < 0 ? "–" : fmtratio(mo / ml))
    }
    printf "| %s | %s | %s | %s |\n", label(c), l, o, q
  }
}' "$raw"
