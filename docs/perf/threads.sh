#!/bin/sh
# Measures the default thread policy against one goroutine (docs/perf/README.md §17) for the six
# pairs of §10 on avx512, in ROUNDS rounds that alternate the order of the cases:
#
#   1. `convertpromote bench --threads 0,1,2` (and 2,1,0), with the cache that sysfs reports;
#      two goroutines forced show what a second core gives in the same round;
#   2. the package benchmark BenchmarkThreadPolicy with sysfs's last-level cache replaced by
#      260 MiB ("llc=260MiB", a test hook; no flag or variable of the library or the CLI
#      changes it), and with the thresholds that 260 MiB gave when taken whole ("llc=260MiB-whole").
#
# Each line gives a pair and size, the median over the rounds of the default's GB/s over one
# goroutine's, the lowest and highest ratio of a round, the goroutine counts the default
# reported at the end of each round's case, and the same ratios for two goroutines forced. Other
# work on the machine moves the ratios (a busy second core takes the gain of a split away):
# run it on a quiet machine, or repeat.
#
#   sh docs/perf/threads.sh [ROUNDS]
set -eu
rounds=${1:-4}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pairs=f32:f16,f16:f32,f32:bf16,bf16:f32,i8:f32,f8e4m3:f16
go build -o "$dir/convertpromote" ./cmd/convertpromote
go test -c -o "$dir/kernels.test" ./kernels
lscpu | sed -n 's/^Model name: *//p'

# ratios reads "round key threads rate [goroutines]" lines (threads 1, 2 or default) and
# prints, for each key, the median, lowest and highest ratio over the rounds of the default's
# rate to one goroutine's, the default's goroutines, and the same ratios for two goroutines.
ratios() {
	awk '
	function stats(a,   n, r, x, i, j, t, med) {
		n = 0
		for (r = 1; r <= nr; r++) if (((r, k) in one) && ((r, k) in a)) x[++n] = a[r, k] / one[r, k]
		if (n == 0) return "    -"
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
		med = n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
		return sprintf("%5.2f (%4.2f–%4.2f)", med, x[1], x[n])
	}
	{ k = $2; if ($3 == "1") one[$1, k] = $4; else if ($3 == "2") two[$1, k] = $4; else { def[$1, k] = $4; g[k] = gn[k]++ ? g[k] "," $5 : $5 }
	  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }; if ($1 > nr) nr = $1 }
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]
			printf "%-30s default %s [%s]  two %s\n", k, stats(def), g[k], stats(two)
		}
	}'
}

echo "# bench --threads 0,1,2 and 2,1,0 alternated, sysfs as reported"
for r in $(seq "$rounds"); do
	order=0,1,2
	[ $((r % 2)) -eq 0 ] && order=2,1,0
	"$dir/convertpromote" bench --pairs "$pairs" --paths avx512 \
		--sizes 1Ki,16Ki,256Ki,1Mi,4Mi,16Mi,64Mi --threads "$order" --time 0.4s 2>/dev/null |
		awk -v r="$r" '$2 == "avx512" { t = $4; g = t; sub(/^default=/, "", g); if (t != g) t = "default"; else g = "";
			print r, $1 "/" $3, t, $7, g }'
done >"$dir/cli.txt"
ratios <"$dir/cli.txt"

echo "# BenchmarkThreadPolicy, last-level cache injected as 260 MiB"
for r in $(seq "$rounds"); do
	"$dir/kernels.test" -test.run '^$' -test.bench 'ThreadPolicy/llc=260MiB' -test.benchtime 0.3s |
		awk -v r="$r" '/^BenchmarkThreadPolicy/ {
			split($1, p, "/"); t = p[5]; sub(/^threads=/, "", t); sub(/-[0-9]+$/, "", t)
			for (i = 1; i <= NF; i++) { if ($i == "MB/s") mb = $(i - 1); if ($i == "goroutines") g = $(i - 1) }
			print r, p[2] "/" p[3] "/" p[4], t, mb, g + 0 }'
done >"$dir/hook.txt"
ratios <"$dir/hook.txt"
