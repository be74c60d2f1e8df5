package preview

// OnAwait tells f whenever a caller of Await or AwaitLoad holds its page and
// is about to wait on it.
func OnAwait(s *Server, f func(token string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.awaiting = f
}
