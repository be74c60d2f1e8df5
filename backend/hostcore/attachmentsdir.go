package hostcore

// AttachmentsDir is the content-addressed image store,
// <data dir>/attachments/<sha256> (spec §4b). The window's image route
// serves from it; it may not exist until the first image is stored.
func (c *Core) AttachmentsDir() string { return c.attachments.Dir() }
