package toolcli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
)

// ParseFlags is fs.Parse with errors that spell the flag as it was given:
// the flag package names every flag with one dash, so "--frobnicate" came
// back as "-frobnicate", which the user never typed.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	// The failing flag is among the last arguments Parse consumed (the
	// flag, or the flag and its value): look there, not at later words
	// such as a subcommand's own flags.
	consumed := args[:len(args)-len(fs.Args())]
	for i := len(consumed) - 1; i >= max(len(consumed)-2, 0); i-- {
		a := consumed[i]
		dashes := "-"
		if strings.HasPrefix(a, "--") {
			dashes = "--"
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, dashes), "=")
		if dashes == "-" || name == "" || !strings.HasPrefix(a, "-") {
			continue
		}
		// The flag package writes the name last or before a colon.
		single := " -" + name
		if strings.HasSuffix(msg, single) {
			return errors.New(strings.TrimSuffix(msg, single) + " " + dashes + name)
		}
		if strings.Contains(msg, single+":") {
			return errors.New(strings.Replace(msg, single+":", " "+dashes+name+":", 1))
		}
	}
	return err
}

// jsonError says where in text a JSON syntax error is: the byte offset and
// its line and column (both from 1), so a long --args can be fixed.
func jsonError(text string, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err.Error()
	}
	// Offset counts the bytes read, the bad one included; at the end of
	// the input there is no bad byte, only a missing one.
	at := min(max(int(se.Offset)-1, 0), len(text))
	if strings.HasPrefix(se.Error(), "unexpected end") {
		at = len(text)
	}
	line := 1 + strings.Count(text[:at], "\n")
	col := at - strings.LastIndex(text[:at], "\n")
	return fmt.Sprintf("%v at line %d, column %d (byte offset %d)", se, line, col, at)
}
