module github.com/convertpromote/convertpromote/examples/onnxruntime

go 1.26.8

require (
	github.com/convertpromote/convertpromote v0.0.0
	github.com/yalue/onnxruntime_go v1.27.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/sys v0.49.0 // indirect

replace github.com/convertpromote/convertpromote => ../..
