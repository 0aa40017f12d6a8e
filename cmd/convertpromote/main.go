// Command convertpromote is the command-line face of the convertpromote library: OpenVINO's
// ConvertPromoteTypes-14 type promotion, the promotion rules of other frameworks, value
// conversion between element types, OpenVINO IR tools and cast-throughput benchmarks.
//
// Run "convertpromote help" for the list of subcommands, and "convertpromote CMD -h" for one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes shared by every subcommand.
const (
	exitOK    = 0
	exitFail  = 1 // the operation itself failed (a promotion error, a model that does not check)
	exitUsage = 2 // bad usage: unknown flag, type or operand
)

// command is one subcommand. run gets the arguments after the subcommand's name and returns the
// exit code; it writes results to stdout and diagnostics to stderr.
type command struct {
	summary, example string
	run              func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is filled by each subcommand's file in its init function.
var commands = map[string]command{}

// register adds a subcommand; example is one complete command line the top-level help shows.
func register(name, summary, example string, run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) {
	commands[name] = command{summary: summary, example: example, run: run}
}

func main() {
	os.Exit(runMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// runMain is main without the process: tests call it directly.
func runMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "--help", "-help":
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "convertpromote help: unknown command %q; run 'convertpromote help'\n", args[1])
				return exitUsage
			}
			return c.run(append(args[2:len(args):len(args)], "-h"), stdin, stdout, stderr)
		}
		usage(stdout)
		return exitOK
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "convertpromote: unknown command %q; run 'convertpromote help'\n", name)
		return exitUsage
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "convertpromote: type promotion and tensor casts as OpenVINO's ConvertPromoteTypes-14 does them.")
	fmt.Fprintln(w, "\nUsage: convertpromote COMMAND [flags] [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nExamples:")
	for _, n := range names {
		fmt.Fprintf(w, "  %s\n", commands[n].example)
	}
	fmt.Fprintln(w, "\nRun 'convertpromote COMMAND -h' for a command's flags and more examples.")
}

// newFlags returns the flag set of the subcommand name ("convert", "ir run") whose help is text
// followed by its flags. Parsing writes nothing: parseFlags reports every outcome in one place.
func newFlags(name, text string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() { fmt.Fprint(fs.Output(), text); fs.PrintDefaults() }
	return fs
}

// parseFlags parses args into fs. When ok is false the subcommand returns code at once: exitOK
// after -h (the help went to stdout, once), exitUsage after a bad flag (one line on stderr that
// names the flag and points at the help).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		printHelp(fs, stdout)
		return exitOK, false
	}
	flagError(stderr, fs.Name(), err, args)
	return exitUsage, false
}

// printHelp writes the flag set's help to w.
func printHelp(fs *flag.FlagSet, w io.Writer) {
	out := fs.Output()
	fs.SetOutput(w)
	fs.Usage()
	fs.SetOutput(out)
}

// flagError writes the one line that reports a flag the flag package refused: the flag as the
// user spelled it, and where the help is.
func flagError(stderr io.Writer, cmd string, err error, args []string) {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name, _, _ = strings.Cut(name, "=")
		msg = "unknown flag " + spelledFlag(strings.TrimLeft(name, "-"), args)
	}
	fmt.Fprintf(stderr, "convertpromote %s: %s; run 'convertpromote %s -h'\n", cmd, msg, cmd)
}

// spelledFlag returns the argument that names the flag name ("--bogus=1" gives "--bogus"), or
// "-name" when none does.
func spelledFlag(name string, args []string) string {
	for _, a := range args {
		f, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(f, "-") && strings.TrimLeft(f, "-") == name {
			return f
		}
	}
	return "-" + name
}

// failf writes one error line of the subcommand cmd ("convert", "ir run"): every usage and I/O
// error a command reports starts "convertpromote CMD: ".
func failf(stderr io.Writer, cmd, format string, a ...any) {
	fmt.Fprintf(stderr, "convertpromote %s: %s\n", cmd, fmt.Sprintf(format, a...))
}

// errUsage marks an error as bad usage (exit 2) rather than a failed operation (exit 1).
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func usageErrorf(format string, a ...any) error { return errUsage{fmt.Sprintf(format, a...)} }

// isUsage reports whether err is a usage error.
func isUsage(err error) bool {
	var u errUsage
	return errors.As(err, &u)
}

// interleaved splits args into flags and positionals so that flags may come before or after the
// operands, as the CLI contract promises. Flags named in withValue take the next argument unless
// written as --flag=value. "--" ends flag parsing.
func interleaved(args []string, withValue map[string]bool) (flags, positional []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 && !isNumberLike(a) {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && withValue[name] && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		positional = append(positional, a)
	}
	return flags, positional
}

// isNumberLike reports whether a word that starts with '-' is a negative value ("-3", "-inf",
// "-1e9", "-0x1") rather than a flag.
func isNumberLike(a string) bool {
	if len(a) < 2 {
		return false
	}
	c := a[1]
	if c >= '0' && c <= '9' || c == '.' {
		return true
	}
	l := strings.ToLower(a[1:])
	return l == "inf" || l == "infinity" || l == "nan"
}
