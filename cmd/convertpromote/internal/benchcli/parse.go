// Package benchcli holds what the bench command of cmd/convertpromote needs besides package
// bench: reading its flag values (sizes, thread counts, pairs, path specs), choosing the paths
// to measure for a pair, and the notation of sizes and byte counts that the command and the
// reports of package bench share.
package benchcli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// MaxElements bounds one size: 2^40 elements, far past any buffer limit, so that sizes never
// overflow the byte arithmetic.
const MaxElements = 1 << 40

// ParseSize reads an element count: a positive decimal integer, optionally followed by the
// binary suffix Ki (2^10), Mi (2^20) or Gi (2^30): "1000", "16Ki", "64Mi", "1Gi". Zero, a
// negative number, another suffix and counts over MaxElements are errors.
func ParseSize(s string) (int, error) {
	t := strings.TrimSpace(s)
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}} {
		if strings.HasSuffix(t, suf.s) {
			t, mult = strings.TrimSuffix(t, suf.s), suf.m
			break
		}
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q is not a whole number of elements (examples: 4096, 16Ki, 64Mi, 1Gi)", s)
	}
	if v <= 0 {
		return 0, fmt.Errorf("size %q must be positive", s)
	}
	if v > MaxElements/mult {
		return 0, fmt.Errorf("size %q is over the limit of 2^40 elements", s)
	}
	return int(v * mult), nil
}

// ParseSizes reads a comma-separated list of sizes (see ParseSize), keeping their order and
// dropping repeats.
func ParseSizes(s string) ([]int, error) { return parseList(s, ParseSize) }

// parseList reads a comma-separated list with parse, keeping the order and dropping repeats.
// The first item parse rejects is the error.
func parseList[T comparable](s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	seen := map[T]bool{}
	for _, f := range strings.Split(s, ",") {
		v, err := parse(f)
		if err != nil {
			return nil, err
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// FormatSize writes an element count the way ParseSize reads it, with the largest binary suffix
// that divides it exactly: 16384 → "16Ki", 1000 → "1000".
func FormatSize(n int) string {
	switch {
	case n != 0 && n%(1<<30) == 0:
		return strconv.Itoa(n>>30) + "Gi"
	case n != 0 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "Mi"
	case n != 0 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "Ki"
	}
	return strconv.Itoa(n)
}

// FormatBytes writes a byte count with a binary unit: "384 MiB", "4 GiB", "1.5 KiB".
func FormatBytes(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, i := float64(b), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

// Pair is a conversion from one element type to another, or a block-scaled one: with Block set
// (Block.Group > 0), decoding Block into To (From is Block.Code) or quantizing From into Block
// (To is Block.Code).
type Pair struct {
	From, To element.Type
	Block    quant.Scheme
}

// String returns "from:to" with canonical names, and the format's name on its side of a
// block-scaled pair ("mxfp4:f32", "f32:nvfp4").
func (p Pair) String() string {
	switch {
	case p.Block.Group > 0 && p.From == p.Block.Code:
		return p.Block.String() + ":" + p.To.String()
	case p.Block.Group > 0:
		return p.From.String() + ":" + p.Block.String()
	}
	return p.From.String() + ":" + p.To.String()
}

// ParsePair reads "from:to" with any spelling element.Parse accepts ("f32:f16", "FP32:FP16").
// An unknown type, a missing colon and a pair that kernels.Convert does not support are errors
// that name the pair.
func ParsePair(s string) (Pair, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Pair{}, fmt.Errorf("pair %q: want FROM:TO, e.g. f32:f16", s)
	}
	if p, ok, err := parseBlockPair(s, a, b); ok {
		return p, err
	}
	from, err := element.Parse(a)
	if err != nil {
		return Pair{}, fmt.Errorf("pair %q: %w", s, err)
	}
	to, err := element.Parse(b)
	if err != nil {
		return Pair{}, fmt.Errorf("pair %q: %w", s, err)
	}
	if !kernels.Supported(from, to) {
		return Pair{}, fmt.Errorf("pair %q: conversion from %s to %s is not supported", s, from, to)
	}
	return Pair{From: from, To: to}, nil
}

// ParsePairs reads a comma-separated list of pairs (see ParsePair), keeping their order and
// dropping repeats.
func ParsePairs(s string) ([]Pair, error) { return parseList(s, ParsePair) }

// MaxThreads bounds one thread count.
const MaxThreads = 1024

// ParseThreads reads a comma-separated list of thread counts, each 0..MaxThreads, keeping their
// order and dropping repeats. 0 stands for package kernels' default policy (SetThreads(0)).
func ParseThreads(s string) ([]int, error) { return parseList(s, parseThreadCount) }

// parseThreadCount reads one thread count of ParseThreads.
func parseThreadCount(f string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(f))
	if err != nil {
		return 0, fmt.Errorf("thread count %q is not a whole number", f)
	}
	if v < 0 || v > MaxThreads {
		return 0, fmt.Errorf("thread count %d must be between 0 (the default policy) and %d", v, MaxThreads)
	}
	return v, nil
}
