package pathguard

// SetAfterRecheck installs a hook that runs between the pre-execution
// re-resolution and the os.Root operation, so tests can swap a link into
// exactly the window os.Root must defend.
func SetAfterRecheck(r *Resolver, f func()) { r.afterRecheck = f }
