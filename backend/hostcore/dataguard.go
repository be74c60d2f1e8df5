package hostcore

import "path/filepath"

// protectedData is the data folder as the path guard protects it: absolute,
// so a relative --data-dir is still recognised. Should the working
// directory be unreadable, the relative spelling is passed on and the
// guard refuses to build a resolver (every tool fails) rather than run
// without the rule.
func (c *Core) protectedData() string {
	if abs, err := filepath.Abs(c.cfg.DataDir); err == nil {
		return abs
	}
	return c.cfg.DataDir
}
