module github.com/convertpromote/convertpromote

go 1.26.8
