package ir

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// markupRunsDoc has runs of comments, processing instructions and directives in every place the
// reader keeps them, laid out as Write lays them out: before and after <net>, directly inside it
// on either side of <layers> and <edges>, in rt_info of the net, a layer and a port, in meta_data,
// in mixed content, and in a Loop body (directly in it and in its <layers>).
const markupRunsDoc = `<?xml version="1.0"?>
<!-- prolog 1 -->
<?pi prolog?>
<!DOCTYPE net>
<net name="runs" version="11">
	<layers>
		<layer id="0" name="p" type="Parameter" version="opset1">
			<data shape="2" element_type="f32" />
			<rt_info>
				<!-- layer rt_info 1 -->
				<?pi layer?>
				<attribute name="fused_names" version="0" value="p" />
				<!--a-->
				<!--b-->
			</rt_info>
			<output>
				<port id="0" precision="FP32" names="p">
					<dim>2</dim>
					<rt_info>
						<!-- port 1 -->
						<!-- port 2 -->
					</rt_info>
				</port>
			</output>
		</layer>
		<layer id="1" name="loop" type="Loop" version="opset5">
			<data />
			<input>
				<port id="0" precision="FP32">
					<dim>2</dim>
				</port>
			</input>
			<output>
				<port id="1" precision="FP32">
					<dim>2</dim>
				</port>
			</output>
			<port_map>
				<input external_port_id="0" internal_layer_id="0" />
				<output external_port_id="1" internal_layer_id="1" />
			</port_map>
			<body>
				<!-- body 1 -->
				<!-- body 2 -->
				<layers>
					<!-- body layers -->
					<!-- x -->
					<layer id="0" name="x" type="Parameter" version="opset1">
						<data shape="2" element_type="f32" />
						<output>
							<port id="0" precision="FP32">
								<dim>2</dim>
							</port>
						</output>
					</layer>
					<layer id="1" name="r" type="Result" version="opset1">
						<input>
							<port id="0" precision="FP32">
								<dim>2</dim>
							</port>
						</input>
					</layer>
				</layers>
				<!-- between -->
				<?b c?>
				<edges>
					<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
				</edges>
				<!-- after edges -->
				<?d?>
			</body>
		</layer>
		<layer id="2" name="r" type="Result" version="opset1">
			<input>
				<port id="0" precision="FP32">
					<dim>2</dim>
				</port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
		<edge from-layer="1" from-port="1" to-layer="2" to-port="0" />
	</edges>
	<!-- before layers 1 -->
	<!-- before layers 2 -->
	<!-- between 1 -->
	<?between?>
	<!-- after edges -->
	<rt_info>
		<!-- net rt_info -->
		<?a b?>
		<v>text <!--x--><!--y--> more</v>
	</rt_info>
	<meta_data>
		<!-- m1 -->
		<!-- m2 -->
		<MO_version value="x" />
		<!-- m3 -->
	</meta_data>
	<!-- last 1 -->
	<!-- last 2 -->
</net>
<!-- epilog 1 -->
<?epilog?>
`

// markupRunsSource is markupRunsDoc as a person might write it: other whitespace between the
// items of a run, or none, and comments where the reader drops them.
const markupRunsSource = `<?xml version="1.0"?>
<!-- prolog 1 --> <?pi prolog?>
<!DOCTYPE net>
<net name="runs" version="11">
<!-- before layers 1 --><!-- before layers 2 -->
<layers>
<!-- dropped 1 --><!-- dropped 2 -->
<layer id="0" name="p" type="Parameter" version="opset1"><!-- dropped --><!-- dropped -->
<data shape="2" element_type="f32"/>
<rt_info><!-- layer rt_info 1 -->
<?pi layer?><attribute name="fused_names" version="0" value="p"/><!--a--><!--b--></rt_info>
<output><port id="0" precision="FP32" names="p"><dim>2</dim><rt_info><!-- port 1 --><!-- port 2 --></rt_info></port></output>
</layer>
<layer id="1" name="loop" type="Loop" version="opset5"><data/>
<input><port id="0" precision="FP32"><dim>2</dim></port></input>
<output><port id="1" precision="FP32"><dim>2</dim></port></output>
<port_map><input external_port_id="0" internal_layer_id="0"/><output external_port_id="1" internal_layer_id="1"/></port_map>
<body><!-- body 1 --><!-- body 2 --><layers><!-- body layers --><!-- x -->
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2" element_type="f32"/><output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="1" name="r" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim></port></input></layer>
</layers><!-- between --><?b c?><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges><!-- after edges --><?d?></body></layer>
<layer id="2" name="r" type="Result" version="opset1"><input><port id="0" precision="FP32"><dim>2</dim></port></input></layer>
</layers>
<!-- between 1 -->
<?between?>
<edges>
<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
<edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
</edges>
<!-- after edges -->
<rt_info>
<!-- net rt_info --> <?a b?>
<v>text <!--x--> <!--y--> more</v>
</rt_info>
<meta_data>
<!-- m1 -->
<!-- m2 -->
<MO_version value="x"/>
<!-- m3 -->
</meta_data>
<!-- last 1 -->
<!-- last 2 -->
</net>
<!-- epilog 1 -->
<?epilog?>
`

// TestMarkupRuns reads runs of comments, processing instructions and directives as one node
// each and writes them back: a file in Write's layout comes back byte for byte, and any file
// survives read → write → read, with a second write identical to the first.
func TestMarkupRuns(t *testing.T) {
	m, err := Parse(strings.NewReader(markupRunsDoc), "runs.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	if got := m.String(); got != markupRunsDoc {
		t.Errorf("read → write changed the file:\n%s", got)
	}
	run := func(where string, n *Node, text string) {
		t.Helper()
		if n == nil || n.Kind != MarkupNode || n.Text != text || n.Name != "" || len(n.Children) != 0 {
			t.Errorf("%s: %+v, want a MarkupNode with text %q", where, n, text)
		}
	}
	if len(m.Prolog) != 1 || len(m.Epilog) != 1 {
		t.Fatalf("prolog %d nodes, epilog %d, want one each", len(m.Prolog), len(m.Epilog))
	}
	run("prolog", m.Prolog[0], "<!-- prolog 1 -->\n<?pi prolog?>\n<!DOCTYPE net>")
	run("epilog", m.Epilog[0], "<!-- epilog 1 -->\n<?epilog?>")
	if len(m.Extra) != 4 {
		t.Fatalf("Extra has %d nodes, want 4", len(m.Extra))
	}
	run("<net>", m.Extra[0], "<!-- before layers 1 -->\n\t<!-- before layers 2 -->\n\t<!-- between 1 -->\n\t<?between?>\n\t<!-- after edges -->")
	run("the end of <net>", m.Extra[3], "<!-- last 1 -->\n\t<!-- last 2 -->")
	md := m.Extra[2].Children
	run("<meta_data>", md[0], "<!-- m1 -->\n\t\t<!-- m2 -->")
	if c := md[2]; c.Kind != CommentNode || c.Text != " m3 " {
		t.Errorf("a lone comment: %+v", c)
	}
	ri := m.Extra[1].Children
	run("net <rt_info>", ri[0], "<!-- net rt_info -->\n\t\t<?a b?>")
	if v := ri[1]; len(v.Children) != 3 || v.Children[0].Text != "text " || v.Children[2].Text != " more" {
		t.Errorf("mixed content: %+v", v.Children)
	} else {
		run("mixed content", v.Children[1], "<!--x--><!--y-->")
	}
	l := m.Layers[0]
	run("layer <rt_info>", l.Head[0].Children[0], "<!-- layer rt_info 1 -->\n\t\t\t\t<?pi layer?>")
	run("port <rt_info>", l.Outputs[0].Extra[0].Children[0], "<!-- port 1 -->\n\t\t\t\t\t\t<!-- port 2 -->")
	body := m.Layers[1].Tail[1]
	run("<body>", body.Children[0], "<!-- body 1 -->\n\t\t\t\t<!-- body 2 -->")
	if sub, err := m.Body(m.Layers[1]); err != nil || len(sub.Layers) != 2 || len(sub.Extra) != 1 {
		t.Errorf("body: %v, %+v", err, sub)
	} else {
		run("the body's <net>", sub.Extra[0], "<!-- body 1 -->\n\t\t\t\t<!-- body 2 -->\n\t<!-- between -->\n\t\t\t\t<?b c?>\n\t<!-- after edges -->\n\t\t\t\t<?d?>")
	}

	for _, src := range []string{markupRunsDoc, markupRunsSource} {
		m, err := Parse(strings.NewReader(src), "runs.xml")
		if err != nil {
			t.Fatal(err)
		}
		w1 := m.String()
		m2, err := Parse(strings.NewReader(w1), "w.xml")
		if err != nil {
			t.Fatalf("%v\n%s", err, w1)
		}
		if !reflect.DeepEqual(strip(m), strip(m2)) {
			t.Errorf("read → write → read changed the model:\n%s", w1)
		}
		if w2 := m2.String(); w2 != w1 {
			t.Errorf("second write differs:\n%s\n----\n%s", w1, w2)
		}
	}
	// The source keeps the whitespace between the items of a run; the comments inside <layers>,
	// <layer> and <edges> are dropped.
	m, err = Parse(strings.NewReader(markupRunsSource), "runs.xml")
	if err != nil {
		t.Fatal(err)
	}
	run("prolog", m.Prolog[0], "<!-- prolog 1 --> <?pi prolog?>\n<!DOCTYPE net>")
	run("mixed content", m.Extra[1].Children[1].Children[1], "<!--x--> <!--y-->")
	if w := m.String(); strings.Contains(w, "dropped") {
		t.Errorf("comments inside <layers> or <layer> kept:\n%s", w)
	}
}

// TestMarkupRunWhitespace: whitespace between the items of a run is kept, a carriage return
// (only a character reference can give one) as a line feed, and whitespace outside XML's
// (a no-break space) as it is; the run reads back the same.
func TestMarkupRunWhitespace(t *testing.T) {
	src := "<net version=\"11\"><layers/><meta_data><!--a-->&#xD;<!--b-->&#xA0;<?c?>\t<!d></meta_data></net>"
	m, err := Parse(strings.NewReader(src), "m.xml")
	if err != nil {
		t.Fatal(err)
	}
	want := "<!--a-->\n<!--b-->\u00a0<?c?>\t<!d>"
	if n := m.Extra[0].Children; len(n) != 1 || n[0].Kind != MarkupNode || n[0].Text != want {
		t.Fatalf("children %+v, want one run %q", n, want)
	}
	m2, err := Parse(strings.NewReader(m.String()), "w.xml")
	if err != nil || !reflect.DeepEqual(strip(m), strip(m2)) {
		t.Errorf("read → write → read: %v\n%s", err, m.String())
	}
}

// TestMarkupRunErrors: a processing instruction or directive where only comments may be is
// reported at its own line, alone or after comments.
func TestMarkupRunErrors(t *testing.T) {
	layer := `<net version="11"><layers><layer id="0" name="a" type="X">`
	cases := []struct{ src, want string }{
		{"<net version=\"11\"><layers/><edges><!--a-->\n<!--b-->\n<?pi?></edges></net>", "m.xml:3: unexpected processing instruction in <edges>"},
		{"<net version=\"11\"><layers><!--a--><!--b-->\n<!d></layers></net>", "m.xml:2: unexpected directive in <layers>"},
		{layer + "<!--a\nb-->\n<!--c--><?pi?></layer></layers></net>", "m.xml:3: layer 0 (a): unexpected processing instruction in <layer>"},
		{layer + "<output><!--a--><!--b-->\n<?pi?><port id=\"0\"/></output></layer></layers></net>", "m.xml:2: layer 0 (a): unexpected processing instruction in <output>"},
		{layer + "<output><port id=\"0\"><!--a-->\n<!--b-->\n\n<!d></port></output></layer></layers></net>", "m.xml:4: layer 0 (a): port 0: unexpected directive"},
		{layer + "<output><port id=\"0\"><dim>1<!--a--><?p?></dim></port></output></layer></layers></net>", "layer 0 (a): port 0: <dim> contains processing instruction"},
		{"<net version=\"11\"><layers/><edges><edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"1\"><!--a-->\n<?p?></edge></edges></net>", "m.xml:2: unexpected processing instruction in <edge>"},
		{"<!--a--><?xml version=\"1.0\"?><net version=\"11\"><layers/></net>", "the XML declaration is not at the start"},
	}
	for _, c := range cases {
		_, err := Parse(strings.NewReader(c.src), "m.xml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", c.src, err, c.want)
		}
	}
	// Runs of comments alone are left out where the reader drops comments.
	src := layer + "<!--a--><!--b--><output><!--c--> <!--d--><port id=\"0\"><!--e--><!--f--><dim>1<!--g--><!--h-->2</dim></port></output></layer></layers>" +
		"<edges><!--i--><!--j--><edge from-layer=\"0\" from-port=\"0\" to-layer=\"0\" to-port=\"0\"><!--k--><!--l--></edge></edges></net>"
	m, err := Parse(strings.NewReader(src), "m.xml")
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Layers[0].Outputs[0]; len(p.Dims) != 1 || p.Dims[0] != 12 || len(p.Extra) != 0 || len(m.Edges) != 1 {
		t.Errorf("port %+v, %d edges", p, len(m.Edges))
	}
	if w := m.String(); bytes.Contains([]byte(w), []byte("<!--")) {
		t.Errorf("comments kept:\n%s", w)
	}
}
