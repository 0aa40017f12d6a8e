module github.com/convertpromote/convertpromote/cmd/convertpromote/internal/bench/peers/vek

go 1.26.0

require (
	github.com/convertpromote/convertpromote v0.0.0
	github.com/viterin/vek v0.4.3
)

require (
	github.com/chewxy/math32 v1.10.1 // indirect
	github.com/viterin/partial v1.1.0 // indirect
	golang.org/x/exp v0.0.0-20230817173708-d852ddb80c63 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/convertpromote/convertpromote => ../../../../../..
