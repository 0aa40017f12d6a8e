package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/convertpromote/convertpromote/element"
	"github.com/convertpromote/convertpromote/kernels"
	"github.com/convertpromote/convertpromote/op"
	"github.com/convertpromote/convertpromote/promote"
)

// Output is one tensor computed by Run.
type Output struct {
	// Name is the output port's first tensor name, or "LAYER:PORT" when it has none; for a
	// Result fed by a Const or a Parameter, the Result's name.
	Name   string
	Layer  *Layer // the layer that produced it (a layer Run computes, or a Result)
	Port   int64
	Tensor op.Tensor
	// Weight is set when the output is a compressed weight (see CompressedWeights) that Run
	// computed as one unit with DecompressedData: Layer is the subgraph's Output, and the
	// subgraph's other layers have no Output of their own.
	Weight *CompressedWeight
}

// RunResult is what Run computed.
type RunResult struct {
	// Outputs lists, in topological order, every output port of an evaluated layer (Convert,
	// ConvertPromoteTypes, Subtract, Multiply, Reshape, Unsqueeze, Transpose, Gather), then
	// every Result fed directly by a Const or a Parameter. A Reshape's or Unsqueeze's tensor
	// shares its input's data. A compressed weight computed as one unit (see RunWith) is one
	// output, of its subgraph's last layer, with Weight set; the subgraph's other layers have
	// none.
	Outputs []Output
	// Skipped lists the layers of those types that were not evaluated because an input is not
	// constant (a Parameter without a tensor, or a layer type Run does not compute), or because
	// the target shape, axes, permutation or axis of a Reshape, Unsqueeze, Transpose or Gather
	// does not come straight from a Const.
	Skipped []*Layer
	// Missing lists the Parameters that a skipped layer depends on and that no input fed, in
	// topological order: feeding them (by the layer's name) would let Run go further.
	Missing []*Layer
}

// evaluable reports whether Run reads (Const, Parameter), computes or passes through (Result)
// layer l.
func evaluable(l *Layer) bool {
	switch l.Type {
	case "Const", "Parameter", "Result":
		return true
	}
	return computes(l)
}

// computes reports whether Run computes layer l from its inputs: Convert, ConvertPromoteTypes,
// and Subtract, Multiply, Reshape, Unsqueeze, Transpose and Gather of an opset.
func computes(l *Layer) bool {
	switch l.Type {
	case "Convert", OpType:
		return true
	}
	return dataOps[l.Type] > 0 && opsetVersion(l) > 0
}

type portKey struct{ layer, port int64 }

// DefaultMaxMemory is the memory budget of Run and Fold when RunOptions.MaxMemory is 0: 2 GiB.
// A fixed amount, not a share of the machine's memory, accepts or refuses a model alike on every
// machine, and is not misled by containers whose limit is below the host's memory. 2 GiB holds
// the largest Const that can be loaded (MaxConstBytes, 1 GiB) together with one output of the
// same size, and leaves room for the rest of the program on a machine with 8 GiB.
const DefaultMaxMemory = 2 << 30

// RunOptions are the settings of RunWith and FoldWith.
type RunOptions struct {
	// MaxMemory bounds the tensor data that Run and Fold hold: the Const data they load, the
	// Parameter tensors that computed layers use, the tensors they compute and, for Fold, the
	// copy of each folded output added to the model's constant data. A compressed weight
	// computed as one unit counts as its codes, scales and zero points (loaded Const data) and
	// the weight (computed), not as the tensors of its subgraph's layers. They add these up
	// from the model's types and shapes before allocating any of them (see Plan) and return a
	// *BudgetError when the sum is larger. 0 means DefaultMaxMemory; a negative value means no
	// limit.
	MaxMemory int64

	// layerByLayer turns off the computation of recognised compressed weights as one unit
	// (tests compare the two).
	layerByLayer bool
}

func (o RunOptions) budget() int64 {
	if o.MaxMemory == 0 {
		return DefaultMaxMemory
	}
	return o.MaxMemory
}

// BudgetError reports an evaluation whose tensor data would exceed RunOptions.MaxMemory.
type BudgetError struct {
	File string
	// Budget is the limit and Need the data the evaluation would hold (bytes): the sum of
	// Consts, Inputs and Outputs, as in Plan.
	Budget, Need            int64
	Consts, Inputs, Outputs int64
}

func (e *BudgetError) Error() string {
	need, budget := formatBytes(e.Need), formatBytes(e.Budget)
	if need == budget {
		// Rounded alike: show the difference.
		need, budget = fmt.Sprintf("%s (%d bytes)", need, e.Need), fmt.Sprintf("%s (%d bytes)", budget, e.Budget)
	}
	return fmt.Sprintf("%s: evaluating needs %s of tensor data (Const data %s, inputs %s, outputs %s), more than the memory budget of %s",
		e.File, need, formatBytes(e.Consts), formatBytes(e.Inputs), formatBytes(e.Outputs), budget)
}

// formatBytes formats a byte count for people: exact below 1 KiB ("512 B"), else in the largest
// binary unit that keeps the number at least 1, with at most two decimals ("1 KiB", "1.5 GiB",
// "2.33 MiB").
func formatBytes(n int64) string {
	if n < 1024 && n > -1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	const units = "KMGTPE"
	v, i := float64(n)/1024, 0
	for (v >= 1024 || v <= -1024) && i < len(units)-1 {
		v /= 1024
		i++
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + " " + units[i:i+1] + "iB"
}

// Plan is what Run would do, worked out from the model's types and shapes and the given
// Parameter tensors, without allocating tensors or reading Const data other than the small
// integer Consts that give Reshape's target shape, Unsqueeze's axes, Transpose's order and
// Gather's axis (at most 4096 elements each), and those CompressedWeights reads to recognise
// compressed weights (their shapes, axes, zero points, codebooks, second-level scales).
//
// For a compressed weight computed as one unit, ConstBytes counts the Consts DecompressedData
// reads (CompressedWeight.Stored: codes, scales, zero points, second-level scale, codebook)
// and OutputBytes the weight (CompressedWeight.Decompressed) and the buffers DecompressedData
// allocates besides for some layouts (a Transpose's copy, u4 zero points widened to u8, one
// scale or zero point per group when they broadcast along more than the group, a codebook's
// indexes); the subgraph's other layers count nothing, and Outputs lists the weight alone
// (PlannedOutput.Weight set). A Const of the subgraph that a layer outside it also needs is
// counted once more, as loaded for that layer. CompressedWeights reads the zero points to check
// their range a few KiB at a time; that is not counted.
type Plan struct {
	// Outputs are the tensors Run would return, in the same order.
	Outputs []PlannedOutput
	// Skipped and Missing are as in RunResult.
	Skipped, Missing []*Layer
	// ConstBytes, InputBytes and OutputBytes are the bytes of Const data loaded, of Parameter
	// tensors used and of tensors computed (nothing for Reshape and Unsqueeze, whose outputs
	// share their input's data). Fold checks its budget the same way, counting each output it
	// replaces by a Const once more: it copies it into the model's constant data.
	ConstBytes, InputBytes, OutputBytes int64
}

// Bytes is the tensor data the plan holds: ConstBytes + InputBytes + OutputBytes, or -1 when
// the sum overflows int64.
func (p *Plan) Bytes() int64 {
	s := p.ConstBytes
	for _, b := range []int64{p.InputBytes, p.OutputBytes} {
		if b < 0 || s > math.MaxInt64-b {
			return -1
		}
		s += b
	}
	return s
}

// PlannedOutput is one tensor Run would compute.
type PlannedOutput struct {
	Name  string // as in Output
	Layer *Layer
	Port  int64
	Type  element.Type
	Shape []int64
	// Weight is set for a compressed weight computed as one unit, as in Output.
	Weight *CompressedWeight
}

// Run is RunWith with the default options (a memory budget of DefaultMaxMemory).
func (m *Model) Run(inputs map[string]op.Tensor) (*RunResult, error) {
	return m.RunWith(inputs, RunOptions{})
}

// RunWith evaluates the model as far as its constant data and the given Parameter tensors
// allow: Const layers (loaded from the .bin), Parameters (inputs, looked up by the layer's name
// or one of its output tensor names), Convert layers (destination_type, converted with package
// kernels), ConvertPromoteTypes layers (op.ConvertPromoteTypes.Evaluate), Results
// (pass-through), and the layers of compressed weights' decompression subgraphs as OpenVINO's
// reference implementation evaluates them (docs/ir.md, "Evaluation"):
//   - Subtract and Multiply (opset1), numpy broadcasting (auto_broadcast "numpy", the default,
//     or "none": equal shapes), both inputs of one type: f16 and bf16 converted to f32 with
//     package kernels, computed in f32 and rounded back to nearest even (no saturation); f32
//     and f64 in their own type; i32, i64, u32, u64 (and i8, u8 for Subtract) wrapping modulo
//     2^bits. A NaN result is the first input's NaN (quieted) when only that input is NaN, and
//     the positive quiet NaN otherwise (docs/SEMANTICS.md §9.5, as package quant gives it);
//   - Reshape (opset1; special_zero; one -1), Unsqueeze (negative axes count from the output's
//     end), Transpose (an empty order reverses the axes) and Gather (opset1, 7, 8; batch_dims
//     0; a negative index counts from the end; an index out of range is an error, except for
//     Gather-8, whose output has zeros there), each with its shape, axes, order or axis from a
//     Const of integers.
//
// Each computed output is checked against the precision and the static dims its output port
// declares. Other layer types are not computed, and neither is anything that depends on them.
//
// A compressed weight that CompressedWeights recognises is computed as one unit: its Output
// layer's tensor is DecompressedData's, which is bit for bit what these layers compute one by
// one (docs/SEMANTICS.md §9.5), and its other layers are neither computed nor listed nor
// counted in the budget (see Plan); their declared precisions and dims are still checked. A
// subgraph whose intermediate tensor feeds a layer outside it, or whose codebook is read by
// Gather-1 or Gather-7, is computed layer by layer. A subgraph that CompressedWeights finds
// malformed is an error: RunWith returns the Errors of CompressedWeights, each located at its
// layer, rather than computing it layer by layer.
//
// The model must pass Check. Before loading or computing anything, RunWith adds up the tensor
// data it will hold (as Plan does) and returns a *BudgetError when the sum exceeds
// o.MaxMemory. A Const that a computed layer needs and whose data is missing, short or out of
// range is an error naming it; a Parameter tensor of the wrong type or shape is an error;
// Consts that nothing computed needs are not read.
func (m *Model) RunWith(inputs map[string]op.Tensor, o RunOptions) (*RunResult, error) {
	w, err := m.evaluate(inputs, o, false)
	if err != nil {
		return nil, err
	}
	res := &RunResult{Skipped: w.skipped, Missing: w.missing}
	for _, v := range w.outputs {
		res.Outputs = append(res.Outputs, Output{Name: v.name, Layer: v.layer, Port: v.port, Tensor: v.t, Weight: v.weight})
	}
	return res, nil
}

// Plan returns what Run would compute and the tensor data it would hold, without reading Const
// data or allocating tensors. The model must pass Check. The errors Run finds before reading
// data (a Const range outside the .bin, a Parameter tensor of the wrong type or shape, an
// operator whose common type cannot hold values, a malformed compressed weight) are Plan's
// errors too.
func (m *Model) Plan(inputs map[string]op.Tensor) (*Plan, error) {
	return m.plan(inputs, RunOptions{})
}

// plan is Plan under the options o (only o.layerByLayer matters).
func (m *Model) plan(inputs map[string]op.Tensor, o RunOptions) (*Plan, error) {
	if _, err := m.Check(); err != nil {
		return nil, err
	}
	fs, err := m.fastOption(o)
	if err != nil {
		return nil, err
	}
	w, err := m.fastWalks(inputs, false, true, fs, nil)
	if err != nil {
		return nil, err
	}
	return w.plan(), nil
}

// fastOption returns the weights computed as one unit under o: none when o.layerByLayer.
func (m *Model) fastOption(o RunOptions) (*fastSet, error) {
	if o.layerByLayer {
		return nil, nil
	}
	return m.fastWeights()
}

// evaluate checks the model, walks it without data to check the budget, then computes.
func (m *Model) evaluate(inputs map[string]op.Tensor, o RunOptions, fold bool) (*walk, error) {
	if _, err := m.Check(); err != nil {
		return nil, err
	}
	fs, err := m.fastOption(o)
	if err != nil {
		return nil, err
	}
	return m.fastWalks(inputs, fold, false, fs, func(dry *walk) error {
		if b, need := o.budget(), dry.plan().Bytes(); b >= 0 && (need < 0 || need > b) {
			if need < 0 {
				need = math.MaxInt64
			}
			return &BudgetError{File: m.File, Budget: b, Need: need, Consts: dry.consts, Inputs: dry.inputs, Outputs: dry.outBytes}
		}
		return nil
	})
}

// value is a computed tensor, or in a dry walk only its type and shape.
type value struct {
	typ   element.Type
	shape []int64
	t     op.Tensor // zero in a dry walk
}

type walkOutput struct {
	value
	name   string
	layer  *Layer
	port   int64
	weight *CompressedWeight // a compressed weight computed as one unit
}

// walk is the result of one pass over the model.
type walk struct {
	outputs                  []walkOutput
	frontier                 map[portKey]bool // for Fold: the outputs it replaces by Consts
	skipped, missing         []*Layer
	consts, inputs, outBytes int64
}

func (w *walk) plan() *Plan {
	p := &Plan{Skipped: w.skipped, Missing: w.missing, ConstBytes: w.consts, InputBytes: w.inputs, OutputBytes: w.outBytes}
	for _, v := range w.outputs {
		p.Outputs = append(p.Outputs, PlannedOutput{Name: v.name, Layer: v.layer, Port: v.port, Type: v.typ, Shape: v.shape, Weight: v.weight})
	}
	return p
}

// addBytes adds b to *sum, saturating at math.MaxInt64.
func addBytes(sum *int64, b int64) {
	if b < 0 || *sum > math.MaxInt64-b {
		*sum = math.MaxInt64
		return
	}
	*sum += b
}

// walk passes over the layers Run computes in topological order. A dry walk works out types,
// shapes and byte counts and checks what can be checked without data; the other loads and
// computes. For Fold only the ConvertPromoteTypes layers and what feeds them are computed, and
// their outputs count twice (Fold copies them into the model's constant data). The compressed
// weights of fs (nil for none) are computed as one unit each (see fastSet.step).
func (m *Model) walk(inputs map[string]op.Tensor, dry, fold bool, fs *fastSet) (*walk, error) {
	byID := map[int64]*Layer{}
	for _, l := range m.Layers {
		byID[l.ID] = l
	}
	order, _ := m.topoOrder(byID)
	into := map[portKey]*Edge{}
	consumers := map[int64][]*Edge{}
	for _, e := range m.Edges {
		into[portKey{e.ToLayer, e.ToPort}] = e
		consumers[e.FromLayer] = append(consumers[e.FromLayer], e)
	}
	// Which layers are worth computing: Converts and operators, the Results they feed, and the
	// evaluable layers upstream of them (for Fold: operators and what is upstream of them).
	needed := map[*Layer]bool{}
	for i := len(order) - 1; i >= 0; i-- {
		l := order[i]
		switch {
		case computes(l) || !fold && l.Type == "Result":
			needed[l] = true
		case evaluable(l):
			for _, e := range consumers[l.ID] {
				if needed[byID[e.ToLayer]] {
					needed[l] = true
				}
			}
		}
	}
	if fs != nil {
		fs.prepare(needed, consumers, byID)
	}
	used := map[string]bool{}
	vals := map[portKey]value{}
	w := &walk{}
	unfed := map[int64]bool{} // the Parameters without a tensor
	input := func(l *Layer, p *Port) (value, bool) {
		e := into[portKey{l.ID, p.ID}]
		if e == nil {
			return value{}, false
		}
		v, ok := vals[portKey{e.FromLayer, e.FromPort}]
		return v, ok
	}
	skip := func(l *Layer) { w.skipped = append(w.skipped, l) }
	output := func(l *Layer, p *Port, v value) {
		vals[portKey{l.ID, p.ID}] = v
		w.outputs = append(w.outputs, walkOutput{value: v, name: outputName(l, p), layer: l, port: p.ID})
	}
	step := func(l *Layer) error {
		switch l.Type {
		case "Const":
			ci, err := m.constRange(l)
			if err != nil {
				return err
			}
			if ci.Type == element.String {
				return nil // strings are not computed on
			}
			v := value{typ: ci.Type, shape: ci.Shape}
			addBytes(&w.consts, ci.Need)
			if !dry {
				// Read straight into the tensor's buffer: no second copy of the data.
				if v.t, err = op.NewTensor(ci.Type, ci.Shape); err != nil {
					return m.errorf(l.Line, l, "%v", err)
				}
				if err := m.readConst(l, ci, v.t.Bytes()); err != nil {
					return err
				}
			}
			vals[portKey{l.ID, l.Outputs[0].ID}] = v
		case "Parameter":
			t, name, ok := m.parameterInput(l, inputs)
			if !ok {
				unfed[l.ID] = true
				return nil
			}
			used[name] = true
			if err := m.checkParameter(l, t); err != nil {
				return err
			}
			addBytes(&w.inputs, int64(len(t.Bytes())))
			for _, p := range l.Outputs {
				vals[portKey{l.ID, p.ID}] = value{typ: t.Type(), shape: t.Shape(), t: t}
			}
		case "Convert":
			in, ok := input(l, l.Inputs[0])
			if !ok {
				skip(l)
				return nil
			}
			dst, _ := l.DataAttr("destination_type")
			to, err := parseType(dst)
			if err != nil {
				return m.errorf(l.Line, l, "destination_type: %v", err)
			}
			v, err := m.outputValue(l, to, in.shape, &w.outBytes, 1, in.typ)
			if err != nil {
				return err
			}
			if !dry {
				if v.t, err = in.t.Convert(to); err != nil {
					return m.errorf(l.Line, l, "%v", err)
				}
			}
			output(l, l.Outputs[0], v)
		case OpType:
			a, okA := input(l, l.Inputs[0])
			b, okB := input(l, l.Inputs[1])
			if !okA || !okB {
				skip(l)
				return nil
			}
			o, err := parsePromoteAttrs(l)
			if err != nil {
				return m.errorf(l.Line, l, "%v", err)
			}
			common, err := o.CommonType(op.Port{Type: a.typ, Shape: promote.StaticShape(a.shape...)}, op.Port{Type: b.typ, Shape: promote.StaticShape(b.shape...)})
			if err != nil {
				return m.errorf(l.Line, l, "%v", err)
			}
			va, err := m.outputValue(l, common, a.shape, &w.outBytes, 1, a.typ, b.typ)
			if err != nil {
				return err
			}
			vb, err := m.outputValue(l, common, b.shape, &w.outBytes, 1, a.typ, b.typ)
			if err != nil {
				return err
			}
			if !dry {
				if va.t, vb.t, err = o.Evaluate(a.t, b.t); err != nil {
					return m.errorf(l.Line, l, "%v", err)
				}
			}
			output(l, l.Outputs[0], va)
			output(l, l.Outputs[1], vb)
		case "Subtract", "Multiply", "Reshape", "Unsqueeze", "Transpose", "Gather":
			if len(l.Inputs) != dataOps[l.Type] || len(l.Outputs) != 1 {
				return m.errorf(l.Line, l, "%s has %d inputs and one output (found %d and %d)", l.Type, dataOps[l.Type], len(l.Inputs), len(l.Outputs))
			}
			ins := sortedInputs(l)
			in := make([]value, len(ins))
			fed := true
			for i, p := range ins {
				in[i], fed = input(l, p)
				if !fed {
					break
				}
			}
			if !fed {
				skip(l)
				return nil
			}
			ints := func(i int) ([]int64, bool, error) {
				src := byID[into[portKey{l.ID, ins[i].ID}].FromLayer]
				if src.Type != "Const" {
					return nil, false, nil
				}
				v, err := m.constInts(l, i, src)
				return v, err == nil, err
			}
			v, held, ok, err := m.evalDataOp(l, in, ints, dry)
			if err != nil {
				return err
			}
			if !ok {
				skip(l)
				return nil
			}
			addBytes(&w.outBytes, held)
			output(l, l.Outputs[0], v)
		case "Result":
			if len(l.Inputs) == 0 {
				return nil
			}
			e := into[portKey{l.ID, l.Inputs[0].ID}]
			if e == nil {
				return nil
			}
			v, ok := vals[portKey{e.FromLayer, e.FromPort}]
			if !ok {
				return nil
			}
			if src := byID[e.FromLayer]; src.Type == "Const" || src.Type == "Parameter" {
				w.outputs = append(w.outputs, walkOutput{value: v, name: l.Name, layer: l, port: l.Inputs[0].ID})
			}
		}
		return nil
	}
	for _, l := range order {
		if !needed[l] {
			continue
		}
		var err error
		if fs == nil {
			err = step(l)
		} else {
			err = fs.step(w, l, dry, step, func(v value) { output(l, l.Outputs[0], v) })
		}
		if err != nil {
			return nil, err
		}
	}
	for name := range inputs {
		if !used[name] {
			return nil, fmt.Errorf("%s: input %q matches no Parameter that a computed layer needs", m.File, name)
		}
	}
	w.missing = unfedUpstream(order, w.skipped, byID, into, unfed)
	if fold {
		w.frontier = frontier(w.outputs, consumers)
		for _, o := range w.outputs {
			if w.frontier[portKey{o.layer.ID, o.port}] {
				size, _ := o.typ.ByteSize(mustElements(o.shape))
				addBytes(&w.outBytes, size)
			}
		}
	}
	return w, nil
}

// frontier returns the computed output ports that Fold replaces by Consts: the connected
// outputs of each computed layer with an edge to a layer that is not computed (a Result, a
// MatMul, a layer with a Parameter input). The other computed layers feed only computed ones
// and are removed with them.
func frontier(outputs []walkOutput, consumers map[int64][]*Edge) map[portKey]bool {
	done := map[int64]bool{}
	for _, o := range outputs {
		if computes(o.layer) {
			done[o.layer.ID] = true
		}
	}
	edge := map[portKey]bool{} // output ports with an edge
	front := map[int64]bool{}  // layers with an edge to a layer that is not computed
	for _, o := range outputs {
		for _, e := range consumers[o.layer.ID] {
			if e.FromPort == o.port && done[o.layer.ID] {
				edge[portKey{o.layer.ID, o.port}] = true
				if !done[e.ToLayer] {
					front[o.layer.ID] = true
				}
			}
		}
	}
	// Every connected output of such a layer becomes a Const, so that no edge is left without
	// its source; Fold prunes the ones that end up unused.
	f := map[portKey]bool{}
	for k := range edge {
		if front[k.layer] {
			f[k] = true
		}
	}
	return f
}

// mustElements is the element count of a shape that outputValue or evalDataOp has checked.
func mustElements(shape []int64) int64 {
	n, _ := promote.NumElements(shape)
	return n
}

// outputValue is the type and shape of a tensor of type t and shape shape converted from the
// types from; it checks that kernels convert each of them to t, and adds copies times the
// tensor's bytes to *sum.
func (m *Model) outputValue(l *Layer, t element.Type, shape []int64, sum *int64, copies int64, from ...element.Type) (value, error) {
	for _, f := range from {
		if !kernels.Supported(f, t) {
			return value{}, m.errorf(l.Line, l, "op: %s values cannot be converted to %s", f, t)
		}
	}
	n, err := promote.NumElements(shape)
	if err != nil {
		return value{}, m.errorf(l.Line, l, "%v", err)
	}
	size, err := t.ByteSize(n)
	if err != nil {
		return value{}, m.errorf(l.Line, l, "%v", err)
	}
	for range copies {
		addBytes(sum, size)
	}
	return value{typ: t, shape: shape}, nil
}

// unfedUpstream returns, in topological order, the Parameters in unfed that a layer in skipped
// depends on: one walk up from all skipped layers together, so that it costs linear time.
func unfedUpstream(order, skipped []*Layer, byID map[int64]*Layer, into map[portKey]*Edge, unfed map[int64]bool) []*Layer {
	if len(skipped) == 0 || len(unfed) == 0 {
		return nil
	}
	visited := map[int64]bool{}
	stack := append([]*Layer(nil), skipped...)
	for _, l := range skipped {
		visited[l.ID] = true
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range x.Inputs {
			e := into[portKey{x.ID, p.ID}]
			if e == nil || visited[e.FromLayer] || byID[e.FromLayer] == nil {
				continue
			}
			visited[e.FromLayer] = true
			stack = append(stack, byID[e.FromLayer])
		}
	}
	var missing []*Layer
	for _, l := range order {
		if unfed[l.ID] && visited[l.ID] {
			missing = append(missing, l)
		}
	}
	return missing
}

// outputName is the port's first tensor name, else "LAYER:PORT".
func outputName(l *Layer, p *Port) string {
	if names := p.NameList(); len(names) > 0 && names[0] != "" {
		return names[0]
	}
	return l.Name + ":" + strconv.FormatInt(p.ID, 10)
}

// parameterInput finds the tensor for a Parameter by its layer name or a tensor name.
func (m *Model) parameterInput(l *Layer, inputs map[string]op.Tensor) (op.Tensor, string, bool) {
	if t, ok := inputs[l.Name]; ok {
		return t, l.Name, true
	}
	for _, p := range l.Outputs {
		for _, n := range p.NameList() {
			if t, ok := inputs[n]; ok {
				return t, n, true
			}
		}
	}
	return op.Tensor{}, "", false
}

// checkParameter checks a fed tensor against the Parameter's element_type and shape.
func (m *Model) checkParameter(l *Layer, t op.Tensor) error {
	if !t.Valid() {
		return m.errorf(l.Line, l, "input tensor is not valid (the zero op.Tensor)")
	}
	if v, ok := l.DataAttr("element_type"); ok {
		if want, err := element.Parse(v); err == nil && want != element.Dynamic && want != t.Type() {
			return m.errorf(l.Line, l, "input tensor has type %s, the Parameter's element_type is %s", t.Type(), want)
		}
	}
	if v, ok := l.DataAttr("shape"); ok {
		if s, err := promote.ParseShape(v); err == nil && !s.DynamicRank && !compatibleDims(t.Shape(), s) {
			return m.errorf(l.Line, l, "input tensor has shape %v, the Parameter's shape is %s", t.Shape(), s)
		}
	}
	return nil
}
