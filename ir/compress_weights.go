package ir

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/quant"
)

// WeightCompression selects how CompressWeights compresses a model's weights.
type WeightCompression struct {
	// Mode is an NNCF weight-compression mode: int8_asym, int8_sym, int4_asym, int4_sym, nf4,
	// fp4, fp8_e4m3, mxfp4, mxfp8_e4m3 or nvfp4 (any letter case).
	Mode string
	// GroupSize is the number of consecutive elements of a weight row that share a scale: 0
	// takes NNCF's default (per row for the int8 modes, 32 for the MX modes, 16 for nvfp4, 128
	// otherwise), −1 one scale per row. The int8 modes take only per-row scales, the MX modes
	// only 32 and nvfp4 only 16.
	GroupSize int
	// AllLayers compresses embeddings and the last MatMul in Mode too, rather than in the
	// backup mode.
	AllLayers bool
}

// nncfBackup is NNCF's backup mode and its group size (0: the primary group) for a primary mode.
func nncfBackup(mode string) (string, int) {
	switch mode {
	case "mxfp4", "mxfp8_e4m3":
		return "mxfp8_e4m3", 32
	case "fp4", "fp8_e4m3":
		return "fp8_e4m3", 0
	}
	return "int8_asym", -1
}

// nncfDefaultGroup is NNCF's default group size of a mode (−1: per row).
func nncfDefaultGroup(mode string) int {
	switch mode {
	case "int8_asym", "int8_sym":
		return -1
	case "mxfp4", "mxfp8_e4m3":
		return 32
	case "nvfp4":
		return 16
	}
	return 128
}

// weightSite is one constant weight CompressWeights compresses.
type weightSite struct {
	konst      *Layer // the Const holding the weight
	consumer   *Layer // the MatMul or Gather
	port       int    // the consumer's input index of the weight: 1 for MatMul, 0 for Gather
	embed      bool   // a Gather embedding
	transposed bool   // a MatMul weight [in, out] (transpose_b false), compressed along axis 0
}

// CompressWeights compresses the constant weights of m as NNCF's data-free weight compression
// (nncf.compress_weights with an OpenVINO model, nncf 3.1) does, and returns how many it
// compressed (docs/SEMANTICS.md §9.6; docs/ir.md, "ir compress --mode"). The weights are the
// 2-D floating-point Consts (f32, f16, bf16, f64, f8e4m3, f8e5m2) feeding input 1 of a MatMul,
// directly or through Convert layers, and input 0 of a Gather whose data input is f16, f32 or
// f64 (an embedding table [rows, hidden], as NNCF recognises one, whatever its axis). Groups run along the input dimension: the rows of a MatMul
// weight [out, in] with transpose_b="true" and of an embedding, the columns of a MatMul weight
// [in, out] with transpose_b="false" (its codes are then stored [in/G, G, out], its scales
// [in/G, 1, out]). A weight of another rank, an integer or 4-bit Const, and the codes of an
// already compressed weight (which reach the consumer through Multiply) are left as they are.
//
// Every weight gets o.Mode, except, for the 4-bit and float modes without o.AllLayers, the
// embeddings and the last MatMul in topological order, which get NNCF's backup mode: int8_asym
// per row; fp8_e4m3 with the same group size for fp4 and fp8_e4m3; mxfp8_e4m3 with groups of
// 32 for the MX modes. Values are quant.CompressNNCF's. Each weight Const NAME becomes NNCF's
// decompression subgraph:
//
//	NAME (codes, [R, C] per row, else [R, C/G, G]; transposed as said above) → Convert f16
//	  [→ Subtract NAME/zero_point/subtract (NAME/zero_point → Convert f16)]   asymmetric modes
//	  → Multiply NAME/fq_weights_P (NAME/scale, f16; f8e8m0 → Convert f16 for MX;
//	     nvfp4: f8e4m3 → Convert f32 → Multiply NAME/dequantized_scale_P by
//	     NAME/second_order_scale (f32 [1, 1, 1]) → Convert f16)
//	  [→ Reshape to [R, C], special_zero false]                    unless per row
//	  [→ Convert NAME/fq_weights_P/convert to the weight's type]
//
// P is the consumer's weight port (1 for MatMul, 0 for Gather). The final Convert is added when
// the weight is not f16 and a consumer of the Const is not a Convert; Converts of the Const to
// the subgraph's output type are bypassed and removed, other consumers are fed by the subgraph.
// Unnamed layers are named as OpenVINO names them (type and id). The model's rt_info gains NNCF's
// entries nncf/weight_compression/{advanced_parameters, all_layers, awq, backup_mode,
// compression_format, gptq, group_size, ignored_scope, lora_correction, mode, ratio,
// scale_estimation, sensitivity_metric} with NNCF's default values for the options NNCF has and
// this function does not.
//
// The model's constant data is then rebuilt from the Consts it still has, so that Save writes a
// .bin without the replaced weights (a model with a Loop or TensorIterator body keeps its .bin
// and gains the new data after it). Memory: one weight as float32 and its compressed form at a
// time, then every compressed weight and the data of the other Consts left in the .bin, held
// until Save.
//
// An unknown mode, a group size the mode does not take, or a group size that does not divide a
// weight's rows is an error naming the layer, and so is Const data that cannot be read; m is
// then unchanged, except on a read error of the .bin while its data is rebuilt.
func CompressWeights(m *Model, o WeightCompression) (int, error) {
	mode := strings.ToLower(o.Mode)
	if _, err := quant.NNCF(mode, 1); err != nil {
		return 0, fmt.Errorf("%s: %w", m.File, err)
	}
	group := o.GroupSize
	if group == 0 {
		group = nncfDefaultGroup(mode)
	}
	switch {
	case group < -1:
		return 0, fmt.Errorf("%s: group size %d: must be positive, or -1 for one group a row", m.File, group)
	case (mode == "int8_asym" || mode == "int8_sym") && group != -1:
		return 0, fmt.Errorf("%s: mode %s takes only per-row scales (group size -1), not %d", m.File, mode, group)
	case (mode == "mxfp4" || mode == "mxfp8_e4m3") && group != 32, mode == "nvfp4" && group != 16:
		return 0, fmt.Errorf("%s: mode %s takes only group size %d, not %d", m.File, mode, nncfDefaultGroup(mode), group)
	}
	sites, err := m.weightSites()
	if err != nil {
		return 0, err
	}
	backup, bgroup := nncfBackup(mode)
	if bgroup == 0 {
		bgroup = group
	}
	lastMatMul := -1
	for i, s := range sites {
		if !s.embed {
			lastMatMul = i
		}
	}
	type plan struct {
		site  weightSite
		mode  string
		group int
		t     element.Type
		shape []int64
		r     quant.NNCFWeight
	}
	// Compress everything before changing the model, so that an error leaves it unchanged; each
	// weight's float32 copy is dropped once compressed.
	var plans []plan
	for i, s := range sites {
		p := plan{site: s, mode: mode, group: group}
		if mode != "int8_asym" && mode != "int8_sym" && !o.AllLayers && (s.embed || i == lastMatMul) {
			p.mode, p.group = backup, bgroup
		}
		ci, data, err := m.ConstData(s.konst)
		if err != nil {
			return 0, err
		}
		// NNCF's reduction axis is the input dimension: axis 1 of [out, in] (transpose_b true, and
		// embeddings), axis 0 of [in, out] (transpose_b false), compressed here as its transpose.
		rows, cols := ci.Shape[0], ci.Shape[1]
		if s.transposed {
			rows, cols = cols, rows
		}
		if p.group != -1 && cols%int64(p.group) != 0 {
			return 0, m.errorf(s.konst.Line, s.konst, "weight of %s %s: group size %d (mode %s) does not divide its %d input channels", s.consumer.Type, s.consumer.Label(), p.group, p.mode, cols)
		}
		w := make([]float32, ci.Elements)
		if err := kernels.Convert(f32View(w), element.F32, data, ci.Type, int(ci.Elements)); err != nil {
			return 0, m.errorf(s.konst.Line, s.konst, "reading the weight: %v", err)
		}
		if s.transposed {
			w = transposeF32(w, int(cols), int(rows))
		}
		p.t, p.shape = ci.Type, ci.Shape
		if p.r, err = quant.CompressNNCF(w, int(rows), int(cols), p.mode, p.group); err != nil {
			return 0, m.errorf(s.konst.Line, s.konst, "compressing the weight of %s as %s: %v", s.consumer.Label(), p.mode, err)
		}
		plans = append(plans, p)
	}
	if len(plans) == 0 {
		return 0, nil
	}
	hadConsumers := map[int64]bool{}
	for _, e := range m.Edges {
		hadConsumers[e.FromLayer] = true
	}
	b := &subgraphBuilder{m: m, next: m.nextLayerID()}
	for _, p := range plans {
		if err := b.replace(p.site, p.r, p.group == -1, p.t, p.shape); err != nil {
			return 0, err
		}
	}
	m.pruneDangling(hadConsumers)
	m.setNNCFRTInfo(map[string]string{
		"mode": mode, "group_size": strconv.Itoa(group), "ratio": "1",
		"all_layers": pyBool(o.AllLayers), "ignored_scope": "[]",
		"sensitivity_metric": "weight_quantization_error", "awq": "False", "scale_estimation": "False",
		"gptq": "False", "lora_correction": "False", "backup_mode": backup,
		"compression_format": "dequantize", "advanced_parameters": nncfAdvancedDefaults,
	})
	if err := m.compactWeights(); err != nil {
		return 0, err
	}
	return len(plans), nil
}

// nncfAdvancedDefaults is str() of NNCF 3.1's default AdvancedCompressionParameters as a dict,
// the value NNCF writes to nncf/weight_compression/advanced_parameters.
const nncfAdvancedDefaults = "{'statistics_path': None, 'lora_adapter_rank': 256, 'group_size_fallback_mode': 'error', " +
	"'min_adjusted_group_size': 32, 'awq_params': {'subset_size': 32, 'percent_to_apply': 0.002, 'alpha_min': 0.0, " +
	"'alpha_max': 1.0, 'steps': 100, 'prefer_data_aware_scaling': True}, 'scale_estimation_params': {'subset_size': 64, " +
	"'initial_steps': 5, 'scale_steps': 5, 'weight_penalty': -1.0}, 'gptq_params': {'damp_percent': 0.1, " +
	"'block_size': 128, 'subset_size': 128}, 'lora_correction_params': {'adapter_rank': 8, 'num_iterations': 3, " +
	"'apply_regularization': True, 'subset_size': 128}, 'backend_params': {}, 'codebook': None, " +
	"'adaptive_codebook_params': {'value_type': 'f8e4m3', 'across_blocks': False, 'num_elements': 16}}"

// pyBool spells a bool as Python's str() does.
func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// weightSites finds the weights to compress, in topological order of their consumers; a Const
// feeding several consumers is compressed once, for the first.
func (m *Model) weightSites() ([]weightSite, error) {
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	order, rest := m.topoOrder(byID)
	if len(rest) > 0 {
		return nil, m.errorf(rest[0].Line, rest[0], "the graph has a cycle through this layer")
	}
	seen := map[int64]bool{}
	var sites []weightSite
	for _, l := range order {
		var s weightSite
		switch l.Type {
		case "MatMul":
			if len(l.Inputs) != 2 {
				continue
			}
			v, _ := l.DataAttr("transpose_b")
			s = weightSite{consumer: l, port: 1, transposed: strings.TrimSpace(strings.ToLower(v)) != "true"}
		case "Gather":
			// NNCF's embedding: a Gather whose data input is an f16, f32 or f64 tensor coming
			// from a Const (its axis is not looked at).
			if len(l.Inputs) == 0 {
				continue
			}
			if dt, ok := l.Inputs[0].Type(); !ok || !oneOfType(dt, element.F16, element.F32, element.F64) {
				continue
			}
			s = weightSite{consumer: l, port: 0, embed: true}
		default:
			continue
		}
		k := m.constThroughConverts(l, s.port, byID)
		if k == nil || seen[k.ID] {
			continue
		}
		ci, err := m.ConstInfo(k)
		if err != nil {
			return nil, err
		}
		if len(ci.Shape) != 2 || ci.Shape[0] < 1 || ci.Shape[1] < 1 || !oneOfType(ci.Type, element.F32, element.F16, element.BF16, element.F64, element.F8E4M3, element.F8E5M2) {
			continue
		}
		seen[k.ID] = true
		s.konst = k
		sites = append(sites, s)
	}
	return sites, nil
}

func oneOfType(t element.Type, ts ...element.Type) bool {
	for _, u := range ts {
		if t == u {
			return true
		}
	}
	return false
}

// constThroughConverts returns the Const that feeds input idx of l directly or through Convert
// layers (as NNCF looks for a weight), or nil.
func (m *Model) constThroughConverts(l *Layer, idx int, byID map[int64]*Layer) *Layer {
	if idx >= len(l.Inputs) {
		return nil
	}
	e := m.Producer(l.ID, l.Inputs[idx].ID)
	for steps := 0; e != nil && steps < 16; steps++ {
		p := byID[e.FromLayer]
		switch {
		case p == nil:
			return nil
		case p.Type == "Const":
			return p
		case p.Type == "Convert" && len(p.Inputs) == 1:
			e = m.Producer(p.ID, p.Inputs[0].ID)
		default:
			return nil
		}
	}
	return nil
}

// subgraphBuilder adds the layers of NNCF's decompression subgraphs to a model.
type subgraphBuilder struct {
	m    *Model
	next int64
}

// shapeAttr spells a static shape as a Const's shape attribute.
func shapeAttr(shape []int64) string {
	s := make([]string, len(shape))
	for i, d := range shape {
		s[i] = strconv.FormatInt(d, 10)
	}
	return strings.Join(s, ", ")
}

// add appends a layer with the given inputs (producer layer and its output port) and one output
// port of type t and shape, and returns it.
func (b *subgraphBuilder) add(name, typ string, data []Attr, t element.Type, shape []int64, in ...*Layer) *Layer {
	l := &Layer{ID: b.next, Name: name, Type: typ, Version: "opset1", HasOutput: true}
	b.next++
	if name == "" {
		l.Name = strings.ReplaceAll(typ, "Const", "Constant") + "_" + strconv.FormatInt(l.ID, 10)
	}
	if data != nil {
		l.Data = &Node{Kind: ElementNode, Name: "data", Attrs: data}
	}
	for i, p := range in {
		src := p.Outputs[0]
		l.Inputs = append(l.Inputs, &Port{ID: int64(i), Precision: src.Precision, Dims: append([]int64(nil), src.Dims...)})
		b.m.Edges = append(b.m.Edges, &Edge{FromLayer: p.ID, FromPort: src.ID, ToLayer: l.ID, ToPort: int64(i)})
	}
	l.HasInput = len(in) > 0
	l.Outputs = []*Port{{ID: int64(len(in)), Precision: t.IRPrecision(), Dims: append([]int64(nil), shape...)}}
	b.m.Layers = append(b.m.Layers, l)
	return l
}

// konst appends a Const holding data.
func (b *subgraphBuilder) konst(name string, t element.Type, shape []int64, data []byte) (*Layer, error) {
	off, err := b.m.appendWeights(data)
	if err != nil {
		return nil, err
	}
	return b.add(name, "Const", []Attr{{"element_type", t.String()}, {"shape", shapeAttr(shape)},
		{"offset", strconv.FormatInt(off, 10)}, {"size", strconv.Itoa(len(data))}}, t, shape), nil
}

func (b *subgraphBuilder) convert(name string, in *Layer, t element.Type) *Layer {
	return b.add(name, "Convert", []Attr{{"destination_type", t.String()}}, t, in.Outputs[0].Dims, in)
}

func (b *subgraphBuilder) binary(name, typ string, t element.Type, x, y *Layer) *Layer {
	return b.add(name, typ, []Attr{{"auto_broadcast", "numpy"}}, t, x.Outputs[0].Dims, x, y)
}

// replace builds the subgraph of one compressed weight (see CompressWeights) and rewires the
// consumers of its Const as NNCF's _replace_node does.
//
// perRow is NNCF's group size −1: a group as long as the row still gets NNCF's grouped layout
// ([rows, 1, cols] and a Reshape), as NNCF writes it for any group size other than −1.
func (b *subgraphBuilder) replace(s weightSite, r quant.NNCFWeight, perRow bool, t element.Type, shape []int64) error {
	name := s.konst.Name
	port := strconv.Itoa(s.port)
	// r is [rows, cols] with groups along cols; a transposed weight is stored [cols, rows].
	rows, cols, g := int64(r.Rows), int64(r.Cols), int64(r.Group)
	codeShape, scaleShape := []int64{rows, cols}, []int64{rows, 1}
	if !perRow {
		codeShape, scaleShape = []int64{rows, cols / g, g}, []int64{rows, cols / g, 1}
	}
	if s.transposed {
		codeShape, scaleShape = []int64{cols, rows}, []int64{1, rows}
		if !perRow {
			codeShape, scaleShape = []int64{cols / g, g, rows}, []int64{cols / g, 1, rows}
		}
		ng := int(cols / g)
		r.Data = quant.Data{
			Codes:  transposePacked(r.Data.Codes, r.Scheme.Code.Bits(), int(rows), int(cols)),
			Scales: transposePacked(r.Data.Scales, r.Scheme.Scale.Bits(), int(rows), ng),
			Zeros:  transposePacked(r.Data.Zeros, r.Scheme.Zero.Bits(), int(rows), ng),
			Scale2: r.Data.Scale2,
		}
	}
	codes, err := b.konst(name, r.Scheme.Code, codeShape, r.Data.Codes)
	if err != nil {
		return err
	}
	x := b.convert("", codes, element.F16)
	if r.Scheme.Zero != element.Dynamic {
		zc, err := b.konst(name+"/zero_point", r.Scheme.Zero, scaleShape, r.Data.Zeros)
		if err != nil {
			return err
		}
		x = b.binary(name+"/zero_point/subtract", "Subtract", element.F16, x, b.convert("", zc, element.F16))
	}
	sc, err := b.konst(name+"/scale", r.Scheme.Scale, scaleShape, r.Data.Scales)
	if err != nil {
		return err
	}
	if r.Scheme.Scale2 != element.Dynamic {
		s2, err := b.konst(name+"/second_order_scale", element.F32, []int64{1, 1, 1}, r.Data.Scale2)
		if err != nil {
			return err
		}
		sc = b.binary(name+"/dequantized_scale_"+port, "Multiply", element.F32, b.convert("", sc, element.F32), s2)
	}
	if r.Scheme.Scale != element.F16 {
		sc = b.convert("", sc, element.F16)
	}
	out := b.binary(name+"/fq_weights_"+port, "Multiply", element.F16, x, sc)
	if !perRow {
		shp := make([]byte, 16)
		binary.LittleEndian.PutUint64(shp, uint64(shape[0]))
		binary.LittleEndian.PutUint64(shp[8:], uint64(shape[1]))
		sh, err := b.konst("", element.I64, []int64{2}, shp)
		if err != nil {
			return err
		}
		out = b.add("", "Reshape", []Attr{{"special_zero", "false"}}, element.F16, shape, out, sh)
	}
	byID := map[int64]*Layer{}
	for _, l := range b.m.Layers {
		byID[l.ID] = l
	}
	outType := element.F16
	if t != element.F16 {
		for _, e := range b.m.Edges {
			if e.FromLayer == s.konst.ID && byID[e.ToLayer] != nil && byID[e.ToLayer].Type != "Convert" {
				out = b.convert(name+"/fq_weights_"+port+"/convert", out, t)
				outType = t
				break
			}
		}
	}
	b.rewire(s.konst, out, outType, byID)
	return nil
}

// rewire feeds the consumers of src's output from out, bypassing Converts of src to outType
// (whose own consumers are rewired in turn), as NNCF's _replace_node does.
func (b *subgraphBuilder) rewire(src, out *Layer, outType element.Type, byID map[int64]*Layer) {
	var bypass []*Layer
	for _, e := range b.m.Edges {
		if e.FromLayer != src.ID {
			continue
		}
		c := byID[e.ToLayer]
		if c != nil && c.Type == "Convert" && len(c.Outputs) == 1 {
			if dt, ok := c.DataAttr("destination_type"); ok {
				if ct, err := element.Parse(dt); err == nil && ct == outType {
					bypass = append(bypass, c)
					continue
				}
			}
		}
		e.FromLayer, e.FromPort = out.ID, out.Outputs[0].ID
		if c != nil {
			for _, p := range c.Inputs {
				if p.ID == e.ToPort {
					p.Precision = out.Outputs[0].Precision
				}
			}
		}
	}
	for _, c := range bypass {
		b.rewire(c, out, outType, byID)
	}
}

// compactWeights drops the bytes of Consts the model no longer has from its .bin: the data of the
// remaining Consts that lie in the .bin is copied into memory (each range once, in layer order)
// and becomes the model's base data, followed by the data added since it was read, kept where it
// is; the Consts are pointed at the new offsets, and Save writes both. The replaced weights'
// bytes would otherwise stay in the written .bin. A model with a Loop or TensorIterator body,
// whose Consts live in the body's XML, keeps its data as it is.
func (m *Model) compactWeights() error {
	type span struct{ off, size int64 }
	var consts []*Layer
	for _, l := range m.Layers {
		if len(l.Tail) > 0 {
			return nil
		}
		if l.Type == "Const" {
			consts = append(consts, l)
		}
	}
	base, _, err := m.baseSize()
	if err != nil {
		return err
	}
	newOff := make([]int64, len(consts))
	added := make([]bool, len(consts))
	placed := map[span]int64{}
	var kept []byte
	for i, l := range consts {
		ci, err := m.constRange(l)
		if err != nil {
			return err
		}
		if ci.Offset >= base { // added data: it moves by the size the .bin shrinks
			newOff[i], added[i] = ci.Offset-base, true
			continue
		}
		sp := span{ci.Offset, ci.Size}
		off, ok := placed[sp]
		if !ok {
			off = int64(len(kept))
			buf := make([]byte, ci.Size)
			if err := m.readConst(l, ci, buf); err != nil {
				return err
			}
			kept = append(kept, buf...)
			placed[sp] = off
		}
		newOff[i] = off
	}
	for i, l := range consts {
		if added[i] {
			newOff[i] += int64(len(kept))
		}
		l.SetDataAttr("offset", strconv.FormatInt(newOff[i], 10))
	}
	m.SetWeights(bytes.NewReader(kept), int64(len(kept)), "(constant data in memory)")
	return nil
}

// setNNCFRTInfo sets the model's rt_info entries nncf/weight_compression/KEY to value="VALUE",
// keeping other entries, the children of weight_compression in name order as OpenVINO writes
// them.
func (m *Model) setNNCFRTInfo(kv map[string]string) {
	child := func(parent *Node, name string) *Node {
		if c := parent.Child(name); c != nil {
			return c
		}
		c := &Node{Kind: ElementNode, Name: name}
		parent.Children = append(parent.Children, c)
		return c
	}
	var rt *Node
	for _, x := range m.Extra {
		if x.Kind == ElementNode && x.Name == "rt_info" {
			rt = x
			break
		}
	}
	if rt == nil {
		rt = &Node{Kind: ElementNode, Name: "rt_info"}
		m.Extra = append(m.Extra, rt)
	}
	wc := child(child(rt, "nncf"), "weight_compression")
	for k, v := range kv {
		child(wc, k).Attrs = []Attr{{"value", v}}
	}
	sort.SliceStable(wc.Children, func(i, j int) bool { return wc.Children[i].Name < wc.Children[j].Name })
}

// transposeF32 returns the transpose of the rows×cols matrix v.
func transposeF32(v []float32, rows, cols int) []float32 {
	t := make([]float32, len(v))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			t[c*rows+r] = v[r*cols+c]
		}
	}
	return t
}

// transposePacked returns the transpose of a rows×cols matrix of packed elements of the given
// bits (4: two a byte, low nibble first; 8, 16 or 32: whole bytes); nil stays nil.
func transposePacked(src []byte, bits, rows, cols int) []byte {
	if src == nil {
		return nil
	}
	dst := make([]byte, len(src))
	if bits == 4 {
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				i, j := r*cols+c, c*rows+r
				dst[j/2] |= (src[i/2] >> (4 * (i % 2)) & 0xF) << (4 * (j % 2))
			}
		}
		return dst
	}
	k := bits / 8
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			copy(dst[(c*rows+r)*k:(c*rows+r+1)*k], src[(r*cols+c)*k:])
		}
	}
	return dst
}

// f32View views float32 values as their bytes.
func f32View(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
}
