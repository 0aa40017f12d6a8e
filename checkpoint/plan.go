package checkpoint

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/quant"
	"github.com/convertpromote/convertpromote/safetensors"
)

// kind is what a step does to one input tensor.
type kind int

const (
	opCopy     kind = iota // bytes unchanged
	opCast                 // a float tensor cast to the output type (kernels.Convert)
	opTiles                // 2-D FP8 tiles dequantized (quant.DequantizeTiles)
	opGroups               // NVFP4 rows dequantized (quant.Dequantize)
	opMXFP4                // gpt-oss blocks dequantized and their last two dims transposed
	opQuantize             // a 2-D weight quantized to FP8 tiles (quant.QuantizeTiles)
)

// step produces one output tensor (two for opQuantize: the codes and their scales) from one
// input tensor and the scale tensors it needs.
type step struct {
	kind          kind
	src           TensorRef
	scale, scale2 TensorRef
	out, out2     int // indexes of the outputs among the shard's declarations (out2: -1)
	from, to      element.Type
	// via is the type a dequantized value is computed in before its cast to to (the scale's
	// type for compressed-tensors), or to itself.
	via    element.Type
	tiles  quant.Tiles
	scheme quant.Scheme
	// rows and cols are the 2-D shape the step works on (opGroups: logical elements a row;
	// opMXFP4: the rows and values a row of each matrix, before the transpose); mats the
	// number of matrices of opMXFP4.
	rows, cols, mats int
}

// shardPlan is one output shard: its declarations and the steps that fill them.
type shardPlan struct {
	in    *safetensors.File
	name  string // the file name
	decls []safetensors.Decl
	steps []step
}

// floatTypes are the dtypes a cast converts.
var floatTypes = map[safetensors.DType]bool{safetensors.F64: true, safetensors.F32: true, safetensors.F16: true, safetensors.BF16: true}

// quantizedTypes are the dtypes whose values mean nothing without a scheme.
var quantizedTypes = map[safetensors.DType]bool{safetensors.F8E4M3: true, safetensors.F8E5M2: true, safetensors.F8E8M0: true,
	safetensors.F8E4M3FNUZ: true, safetensors.F8E5M2FNUZ: true, safetensors.F4: true, safetensors.F6E2M3: true, safetensors.F6E3M2: true}

func skipped(name string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// tensorError is an error naming a tensor and its file.
func tensorError(t TensorRef, format string, args ...any) error {
	return fmt.Errorf("%s: tensor %q: %s", t.Shard.Name(), t.Name, fmt.Sprintf(format, args...))
}

// planConvert lays out the output shards of Convert.
func (c *Checkpoint) planConvert(to element.Type, skip []string) ([]shardPlan, error) {
	dt, _ := safetensors.DTypeOf(to)
	var plans []shardPlan
	for _, f := range c.Shards {
		p := shardPlan{in: f, name: baseName(f)}
		for _, t := range f.Tensors() {
			ref := TensorRef{t, f}
			if skipped(t.Name, skip) {
				p.add(step{kind: opCopy, src: ref}, safetensors.Decl{Name: t.Name, DType: t.DType, Shape: t.Shape})
				continue
			}
			s, decl, drop, err := c.dequantStep(ref, to, dt)
			if err != nil {
				return nil, err
			}
			if drop {
				continue
			}
			if s.kind == opCopy && s.src.Name == "" { // not a quantized weight of the scheme
				s, decl, err = castStep(ref, to, dt)
				if err != nil {
					return nil, err
				}
			}
			p.add(s, decl)
		}
		plans = append(plans, p)
	}
	return plans, nil
}

func (p *shardPlan) add(s step, d safetensors.Decl) {
	s.out, s.out2 = len(p.decls), -1
	p.decls = append(p.decls, d)
	p.steps = append(p.steps, s)
}

// castStep casts a float tensor, copies other plain tensors and refuses quantized ones.
func castStep(t TensorRef, to element.Type, dt safetensors.DType) (step, safetensors.Decl, error) {
	switch {
	case floatTypes[t.DType] && t.DType != dt:
		from, _ := t.DType.Element()
		return step{kind: opCast, src: t, from: from, to: to}, safetensors.Decl{Name: t.Name, DType: dt, Shape: t.Shape}, nil
	case quantizedTypes[t.DType]:
		return step{}, safetensors.Decl{}, tensorError(t, "%s values need a scale this checkpoint's scheme does not give them (copy it unchanged with --skip)", t.DType)
	}
	return step{kind: opCopy, src: t}, safetensors.Decl{Name: t.Name, DType: t.DType, Shape: t.Shape}, nil
}

// sibling returns the tensor whose name is t's with suffix replaced by repl, if t's name ends
// with suffix.
func (c *Checkpoint) sibling(name, suffix, repl string) (TensorRef, bool) {
	if !strings.HasSuffix(name, suffix) {
		return TensorRef{}, false
	}
	return c.Lookup(strings.TrimSuffix(name, suffix) + repl)
}

func isDType(t TensorRef, ok bool, d ...safetensors.DType) bool {
	if !ok {
		return false
	}
	for _, x := range d {
		if t.DType == x {
			return true
		}
	}
	return false
}

// dequantStep returns the step of a tensor that the checkpoint's scheme dequantizes, or drop for
// a tensor the dequantized checkpoint no longer has (scales, activation scales); a zero step
// (src empty) for a tensor the scheme leaves alone.
func (c *Checkpoint) dequantStep(t TensorRef, to element.Type, dt safetensors.DType) (s step, d safetensors.Decl, drop bool, err error) {
	f8 := []safetensors.DType{safetensors.F8E4M3, safetensors.F8E5M2}
	switch c.Scheme {
	case DeepSeekFP8:
		if w, ok := c.sibling(t.Name, ".weight_scale_inv", ".weight"); ok && isDType(w, ok, f8...) {
			return s, d, true, nil
		}
		if t.DType == safetensors.F8E4M3 && strings.HasSuffix(t.Name, ".weight") {
			b, _ := c.blockSize()
			scale, ok := c.Lookup(t.Name + "_scale_inv")
			if !ok {
				return s, d, false, tensorError(t, "F8_E4M3 weight without its scale %q", t.Name+"_scale_inv")
			}
			s, d, err = tilesStep(t, scale, to, dt, to, b[0], b[1], "[ceil(rows/%d), ceil(cols/%d)]", b[0], b[1])
			return s, d, false, err
		}
	case CompressedFP8:
		if w, ok := c.sibling(t.Name, ".weight_scale", ".weight"); ok && isDType(w, ok, f8...) {
			return s, d, true, nil
		}
		if _, ok := c.sibling(t.Name, ".input_scale", ".weight"); ok {
			return s, d, true, nil
		}
		if strings.HasSuffix(t.Name, ".weight_zero_point") {
			return s, d, false, tensorError(t, "asymmetric FP8 (a zero point) is not supported")
		}
		if isDType(t, true, f8...) && strings.HasSuffix(t.Name, ".weight") {
			s, d, err = c.compressedFP8Step(t, to, dt)
			return s, d, false, err
		}
	case ModelOptNVFP4:
		if w, ok := c.sibling(t.Name, ".weight_scale", ".weight"); ok && c.hasSibling(w.Name, ".weight", ".weight_scale_2") {
			return s, d, true, nil
		}
		if _, ok := c.sibling(t.Name, ".weight_scale_2", ".weight"); ok {
			return s, d, true, nil
		}
		if _, ok := c.sibling(t.Name, ".input_scale", ".weight"); ok {
			return s, d, true, nil
		}
		if strings.HasSuffix(t.Name, ".weight") && c.hasSibling(t.Name, ".weight", ".weight_scale_2") {
			scale, _ := c.Lookup(strings.TrimSuffix(t.Name, ".weight") + ".weight_scale")
			scale2, _ := c.Lookup(strings.TrimSuffix(t.Name, ".weight") + ".weight_scale_2")
			s, d, err = nvfp4Step(t, scale, scale2, quant.NVFP4ModelOpt, t.Name, to, dt)
			return s, d, false, err
		}
	case CompressedNVFP4:
		for _, suf := range []string{".weight_scale", ".weight_global_scale", ".input_global_scale"} {
			if _, ok := c.sibling(t.Name, suf, ".weight_packed"); ok {
				return s, d, true, nil
			}
		}
		if strings.HasSuffix(t.Name, ".weight_packed") {
			p := strings.TrimSuffix(t.Name, ".weight_packed")
			scale, _ := c.Lookup(p + ".weight_scale")
			scale2, _ := c.Lookup(p + ".weight_global_scale")
			s, d, err = nvfp4Step(t, scale, scale2, quant.NVFP4CompressedTensors, p+".weight", to, dt)
			return s, d, false, err
		}
	case GptOssMXFP4:
		if b, ok := c.sibling(t.Name, "_scales", "_blocks"); ok && b.DType == safetensors.U8 {
			return s, d, true, nil
		}
		if strings.HasSuffix(t.Name, "_blocks") {
			s, d, err = c.mxfp4Step(t, to, dt)
			return s, d, false, err
		}
	}
	return step{}, d, false, nil
}

func (c *Checkpoint) hasSibling(name, suffix, repl string) bool {
	_, ok := c.sibling(name, suffix, repl)
	return ok
}

// shape2 returns a 2-D tensor's rows and columns.
func shape2(t TensorRef) (int, int, error) {
	if len(t.Shape) != 2 {
		return 0, 0, tensorError(t, "shape %v is not 2-D", t.Shape)
	}
	return int(t.Shape[0]), int(t.Shape[1]), nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// tilesStep dequantizes an FP8 weight with one scale per tr × tc tile, the scale grid being
// ceil(rows/tr) × ceil(cols/tc) (layout describes it for errors).
func tilesStep(t, scale TensorRef, to element.Type, dt safetensors.DType, via element.Type, tr, tc int, layout string, args ...any) (step, safetensors.Decl, error) {
	rows, cols, err := shape2(t)
	if err != nil {
		return step{}, safetensors.Decl{}, err
	}
	st, ok := scale.DType.Element()
	if !ok || st != element.F32 && st != element.F16 && st != element.BF16 {
		return step{}, safetensors.Decl{}, tensorError(scale, "scale dtype %s (valid: F32, F16, BF16)", scale.DType)
	}
	tl := quant.Tiles{Code: elementOf(t.DType), Scale: st, Rows: rows, Cols: cols, TileRows: tr, TileCols: tc}
	if scale.Elements() != int64(tl.GridRows()*tl.GridCols()) || len(scale.Shape) == 2 && (scale.Shape[0] != int64(tl.GridRows()) || scale.Shape[1] != int64(tl.GridCols())) {
		return step{}, safetensors.Decl{}, tensorError(scale, "shape %v does not fit the weight %q of shape %v (want %s = [%d, %d])", scale.Shape, t.Name, t.Shape, fmt.Sprintf(layout, args...), tl.GridRows(), tl.GridCols())
	}
	return step{kind: opTiles, src: t, scale: scale, to: to, via: via, tiles: tl, rows: rows, cols: cols},
		safetensors.Decl{Name: t.Name, DType: dt, Shape: t.Shape}, nil
}

func elementOf(d safetensors.DType) element.Type {
	t, _ := d.Element()
	return t
}

// compressedFP8Step lays out a compressed-tensors FP8 weight: its strategy is read from the
// shape of its scale (one value: tensor; [rows, 1]: channel; [rows, G]: groups of the config's
// group_size; a 2-D grid of the config's block_structure: block), computed in the scale's dtype.
func (c *Checkpoint) compressedFP8Step(t TensorRef, to element.Type, dt safetensors.DType) (step, safetensors.Decl, error) {
	rows, cols, err := shape2(t)
	if err != nil {
		return step{}, safetensors.Decl{}, err
	}
	scale, ok := c.Lookup(t.Name + "_scale")
	if !ok {
		return step{}, safetensors.Decl{}, tensorError(t, "%s weight without its scale %q", t.DType, t.Name+"_scale")
	}
	via := elementOf(scale.DType)
	w := c.weightArgs()
	switch {
	case scale.Elements() == 1 && w.strategy != "channel" && w.strategy != "group" && w.strategy != "block":
		return tilesStep(t, scale, to, dt, via, max(rows, 1), max(cols, 1), "one scale")
	case w.strategy == "channel" || w.strategy == "" && len(scale.Shape) == 2 && scale.Shape[1] == 1 && cols > 1:
		return tilesStep(t, scale, to, dt, via, 1, max(cols, 1), "[rows, 1]")
	case w.strategy == "group" || w.strategy == "tensor_group":
		if w.group < 1 {
			return step{}, safetensors.Decl{}, fmt.Errorf("%s: the weights' group_size is missing for tensor %q", c.configName(), t.Name)
		}
		return tilesStep(t, scale, to, dt, via, 1, w.group, "[rows, ceil(cols/%d)]", w.group)
	case w.strategy == "block":
		if w.block[0] < 1 || w.block[1] < 1 {
			return step{}, safetensors.Decl{}, fmt.Errorf("%s: the weights' block_structure is missing for tensor %q", c.configName(), t.Name)
		}
		return tilesStep(t, scale, to, dt, via, w.block[0], w.block[1], "[ceil(rows/%d), ceil(cols/%d)]", w.block[0], w.block[1])
	}
	return step{}, safetensors.Decl{}, tensorError(scale, "shape %v matches no strategy (tensor, channel, group, block) of the weight's shape %v", scale.Shape, t.Shape)
}

// weightArgs are the weights' quantization arguments of compressed-tensors' first config group.
type weightArgs struct {
	strategy string
	group    int
	block    [2]int
}

func (c *Checkpoint) weightArgs() weightArgs {
	var w weightArgs
	groups, _ := c.quant["config_groups"].(map[string]any)
	for _, g := range groups {
		gm, _ := g.(map[string]any)
		wm, _ := gm["weights"].(map[string]any)
		if wm == nil {
			continue
		}
		w.strategy, _ = wm["strategy"].(string)
		if f, ok := wm["group_size"].(float64); ok {
			w.group = int(f)
		}
		if b, ok := wm["block_structure"].([]any); ok && len(b) == 2 {
			f0, _ := b[0].(float64)
			f1, _ := b[1].(float64)
			w.block = [2]int{int(f0), int(f1)}
		}
		break
	}
	return w
}

// nvfp4Step lays out an NVFP4 weight: U8 [rows, cols/2] codes (two a byte, the first in the low
// nibble), F8_E4M3 [rows, ceil(cols/16)] scales and a one-value F32 second-level scale.
func nvfp4Step(t, scale, scale2 TensorRef, s quant.Scheme, name string, to element.Type, dt safetensors.DType) (step, safetensors.Decl, error) {
	rows, half, err := shape2(t)
	if err != nil {
		return step{}, safetensors.Decl{}, err
	}
	if t.DType != safetensors.U8 {
		return step{}, safetensors.Decl{}, tensorError(t, "packed NVFP4 codes must be U8, not %s", t.DType)
	}
	cols := 2 * half
	switch {
	case scale.Name == "" || scale2.Name == "":
		return step{}, safetensors.Decl{}, tensorError(t, "NVFP4 weight without its block scale or second-level scale")
	case scale.DType != safetensors.F8E4M3 || len(scale.Shape) != 2 || scale.Shape[0] != int64(rows) || scale.Shape[1] != int64(ceilDiv(cols, 16)):
		return step{}, safetensors.Decl{}, tensorError(scale, "%s %v is not the F8_E4M3 [%d, %d] the weight %q needs", scale.DType, scale.Shape, rows, ceilDiv(cols, 16), t.Name)
	case scale2.DType != safetensors.F32 || scale2.Elements() != 1:
		return step{}, safetensors.Decl{}, tensorError(scale2, "%s %v is not one F32 value", scale2.DType, scale2.Shape)
	}
	return step{kind: opGroups, src: t, scale: scale, scale2: scale2, to: to, via: to, scheme: s, rows: rows, cols: cols},
		safetensors.Decl{Name: name, DType: dt, Shape: []int64{int64(rows), int64(cols)}}, nil
}

// mxfp4Step lays out gpt-oss blocks [..., R, G, 16] with scales [..., R, G]: the output, named
// without "_blocks", is [..., G·32, R], each R × G·32 matrix transposed as transformers lays out
// the dequantized parameter.
func (c *Checkpoint) mxfp4Step(t TensorRef, to element.Type, dt safetensors.DType) (step, safetensors.Decl, error) {
	n := len(t.Shape)
	if t.DType != safetensors.U8 || n < 3 || t.Shape[n-1] != 16 {
		return step{}, safetensors.Decl{}, tensorError(t, "MXFP4 blocks must be U8 [..., rows, groups, 16], not %s %v", t.DType, t.Shape)
	}
	name := strings.TrimSuffix(t.Name, "_blocks")
	scale, ok := c.Lookup(name + "_scales")
	if !ok {
		return step{}, safetensors.Decl{}, tensorError(t, "MXFP4 blocks without their scales %q", name+"_scales")
	}
	want := t.Shape[:n-1]
	if scale.DType != safetensors.U8 || !slices.Equal(scale.Shape, want) {
		return step{}, safetensors.Decl{}, tensorError(scale, "%s %v is not the U8 %v the blocks %q need", scale.DType, scale.Shape, want, t.Name)
	}
	rows, groups := int(t.Shape[n-3]), int(t.Shape[n-2])
	mats := 1
	for _, d := range t.Shape[:n-3] {
		mats *= int(d)
	}
	shape := append(append([]int64{}, t.Shape[:n-3]...), int64(groups*32), int64(rows))
	s := quant.MXFP4
	return step{kind: opMXFP4, src: t, scale: scale, to: to, via: to, scheme: s, rows: rows, cols: groups * 32, mats: mats},
		safetensors.Decl{Name: name, DType: dt, Shape: shape}, nil
}
