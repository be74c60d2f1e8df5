package checkpoint

// SetBeforeWrite installs the test seam that runs in a restore between the
// check of a file's folder and its write.
func SetBeforeWrite(s *Service, fn func(path string)) { s.beforeWrite = fn }
