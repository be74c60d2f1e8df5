package review

// SetAfterApply runs f after step i of a multi-step rollback was applied.
func SetAfterApply(s *Store, f func(i int)) { s.afterApply = f }
