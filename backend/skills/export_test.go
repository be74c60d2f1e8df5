package skills

import "context"

// NewCacheOver is NewCache with load in place of Load, so a test can count
// the parses the cache spares.
func NewCacheOver(load func(context.Context, Sources) (Set, error)) *Cache {
	return &Cache{load: load, entries: map[Sources]cached{}}
}
