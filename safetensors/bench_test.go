package safetensors

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// BenchmarkWriteAt writes 512 MiB into a new file through Writer.WriteAt in 4 MiB pieces from
// one and from two goroutines, in the directory BENCH_DIR (default the system's temporary
// directory; /dev/shm keeps the disk out): the rate at which the kernel takes one file's
// data, which bounds how much a second converting thread can add (docs/perf §16).
func BenchmarkWriteAt(b *testing.B) {
	dir := os.Getenv("BENCH_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	const size, piece = 512 << 20, 4 << 20
	buf := make([]byte, piece)
	for i := range buf {
		buf[i] = byte(i)
	}
	for _, g := range []int{1, 2} {
		b.Run(strconv.Itoa(g)+"-goroutines", func(b *testing.B) {
			b.SetBytes(size)
			for range b.N {
				p := filepath.Join(dir, "bench.safetensors")
				w, err := Create(p, []Decl{{Name: "x", DType: U8, Shape: []int64{size}}}, nil)
				if err != nil {
					b.Fatal(err)
				}
				var wg sync.WaitGroup
				for k := range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for off := int64(k) * piece; off < size; off += int64(g) * piece {
							w.WriteAt(buf, off)
						}
					}()
				}
				wg.Wait()
				b.StopTimer()
				w.Abort()
				b.StartTimer()
			}
		})
	}
}
