// Package bench measures the throughput of the cast kernels of package kernels, side by side in
// one run with copy() of the same bytes (the memory bound of the machine), with the pure-Go path
// and, for f32:f16 and f16:f32, with the per-element loop of github.com/x448/float16 that most Go
// code uses (see PathX448).
//
// # What is measured
//
// A case is one (pair, path, size, threads) combination. For each case the source buffer is
// filled once with realistic random values of the source type (see Fill) and the destination is
// allocated once; both start on a 64-byte boundary. One operation converts all n elements. Every
// operation converts the same buffer again, so at small sizes a loop with data-dependent branches
// can look faster than on fresh data: the branch predictor learns the repeating data.
//
// Throughput counts bytes read plus bytes written: bytes_per_op = from.ByteSize(n) +
// to.ByteSize(n), so packed types are rounded up to whole bytes. GB/s means 10^9 bytes per second.
//
// # The copy bound
//
// A copy of k bytes reads k bytes and writes k bytes. To compare like with like, each case also
// times copy() of ceil(bytes_per_op/2) bytes, so the copy moves the same traffic as the
// conversion, and its bytes/s counts both directions too. With more than one thread the copy is
// split across the same number of goroutines as the conversion (by the same size rule,
// kernels.ParallelMinBytes); thread count 0 measures package kernels' default policy, and the
// copy then uses as many goroutines as the policy chose (Case.Goroutines). Copy batches alternate with conversion batches, so load from other
// processes hits both alike. ratio_copy = gbps_median / copy_gbps_median: 1.0 means the
// conversion runs at memory speed.
//
// # The stop rule
//
// Each case first calibrates a batch size (operations per timed batch) so that a batch lasts
// about Config.Batch; the calibration batches are the warm-up and are discarded. Then it repeats
// a conversion batch and a copy batch until, over the last Config.Window samples of each, the
// spread (max-min)/median is below Config.Tolerance, or the time budget (Config.Budget, counting
// every timed batch of the case, warm-up included) is spent, or Config.MaxSamples is reached.
// At least Config.MinSamples samples are always taken.
//
// # Statistics
//
// Reported values come from all samples after warm-up. The median is gonum's
// stat.Quantile(0.5, stat.Empirical, …): an observed sample (the lower middle one for an even
// count). ns_per_elem is derived from the median throughput. ratio_generic divides a case's
// median by the median of the generic path for the same pair, size and threads; it is null for
// the generic path itself and when the run did not measure the generic path.
package bench
