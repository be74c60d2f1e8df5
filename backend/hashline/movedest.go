package hashline

// MoveDest returns the MV destination of ops exactly as written, or "" when
// ops has none or does not parse (the edit then fails on its own). The host
// uses it to classify the second path an Edit may write before asking.
func MoveDest(ops string) string {
	p, err := parseOps(ops, defaultOpsLimits())
	if err != nil {
		return ""
	}
	for _, o := range p.ops {
		if o.kind == opMv {
			return o.dest
		}
	}
	return ""
}
