package hostcore

// Views of Core's state for the lifecycle tests, so they wait for a state
// instead of sleeping until it probably holds.

// CallsInAdmission is how many calls of session are admitted or waiting to be.
func (c *Core) CallsInAdmission(session string) int {
	c.admission.mu.Lock()
	defer c.admission.mu.Unlock()
	if g := c.admission.sessions[session]; g != nil {
		return g.calls
	}
	return 0
}

// Closing reports whether Close has begun: no call starts after it.
func (c *Core) Closing() bool {
	c.life.Lock()
	defer c.life.Unlock()
	return c.life.closing
}
