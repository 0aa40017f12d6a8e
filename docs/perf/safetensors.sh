#!/bin/sh
# Measures `convertpromote safetensors convert` against cp on checkpoints of one 1 GiB weight
# (docs/perf/README.md §16): f32 → bf16 and DeepSeek FP8 → bf16, one and two threads, with the
# input in the page cache. Each line gives the bytes moved (input + output) per second and the
# ratios to cp's (2 × input) in the same round, and to cp followed by sync of its output (the
# command flushes each output file to disk before renaming it into place; on a memory-backed DIR
# the flush costs nothing); rounds alternate the commands.
#
#   sh docs/perf/safetensors.sh [DIR] [ROUNDS]
#
# DIR (default /dev/shm/convertpromote-perf, memory-backed, so that neither command waits on the
# disk) holds the inputs and outputs; it is removed at the end.
set -eu
dir=${1:-/dev/shm/convertpromote-perf}
rounds=${2:-5}
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/convertpromote" ./cmd/convertpromote
go run ./internal/ckfixture/big "$dir/f32" f32 16384 16384
go run ./internal/ckfixture/big "$dir/fp8" fp8 32768 32768
cat "$dir/f32/model.safetensors" "$dir/fp8/model.safetensors" >/dev/null
lscpu | sed -n 's/^Model name: *//p'
now() { date +%s%N; }
size() { stat -c %s "$1"; }
run() { # name moved-bytes command...
	name=$1 moved=$2
	shift 2
	rm -rf "$dir/out"
	sync # each command starts with no writeback of an earlier one pending
	t0=$(now)
	"$@" >/dev/null
	t1=$(now)
	echo "$name $moved $((t1 - t0))"
}
in32=$(size "$dir/f32/model.safetensors")
in8=$(size "$dir/fp8/model.safetensors")
for r in $(seq "$rounds"); do
	run cp $((2 * in32)) cp "$dir/f32/model.safetensors" "$dir/out"
	run cp+sync $((2 * in32)) sh -c "cp '$dir/f32/model.safetensors' '$dir/out' && sync '$dir/out'"
	run f32-bf16-t1 $((in32 + in32 / 2)) "$dir/convertpromote" safetensors convert "$dir/f32" --to bf16 -o "$dir/out" --quiet --threads 1
	run f32-bf16-t2 $((in32 + in32 / 2)) "$dir/convertpromote" safetensors convert "$dir/f32" --to bf16 -o "$dir/out" --quiet --threads 2
	run cp8 $((2 * in8)) cp "$dir/fp8/model.safetensors" "$dir/out"
	run cp8+sync $((2 * in8)) sh -c "cp '$dir/fp8/model.safetensors' '$dir/out' && sync '$dir/out'"
	run fp8-bf16-t1 $((in8 * 3)) "$dir/convertpromote" safetensors convert "$dir/fp8" --to bf16 -o "$dir/out" --quiet --threads 1
	run fp8-bf16-t2 $((in8 * 3)) "$dir/convertpromote" safetensors convert "$dir/fp8" --to bf16 -o "$dir/out" --quiet --threads 2
done | awk '
	{ rate = $2 / $3 }
	$1 == "cp" || $1 == "cp8" { base = rate; printf "%-12s %6.2f GB/s moved\n", $1, rate; next }
	$1 ~ /sync/ { sbase = rate; printf "%-12s %6.2f GB/s moved  %5.2f x cp\n", $1, rate, rate / base; next }
	{ printf "%-12s %6.2f GB/s moved  %5.2f x cp  %5.2f x cp+sync\n", $1, rate, rate / base, rate / sbase }'
