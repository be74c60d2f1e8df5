package search

import "strconv"

func boolStr(b bool) string { return strconv.FormatBool(b) }
func itoa(n int) string     { return strconv.Itoa(n) }
