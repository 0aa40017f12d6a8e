package benchcli_test

import (
	"fmt"

	"github.com/convertpromote/convertpromote/cmd/convertpromote/internal/benchcli"
)

func ExampleParseSize() {
	for _, s := range []string{"1000", "16Ki", "64Mi", "0"} {
		n, err := benchcli.ParseSize(s)
		fmt.Println(n, benchcli.FormatSize(n), err)
	}
	// Output:
	// 1000 1000 <nil>
	// 16384 16Ki <nil>
	// 67108864 64Mi <nil>
	// 0 0 size "0" must be positive
}
