package settings

import (
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// checkEnvLists validates the environment policy lists: valid, distinct
// variable names, none in both lists (which one would win is a guess the
// user should not have to make).
func (s *Service) checkEnvLists(pass, drop []string) error {
	if err := s.checkEnvList("envPassthrough", pass); err != nil {
		return err
	}
	if err := s.checkEnvList("envDrop", drop); err != nil {
		return err
	}
	for _, p := range pass {
		for _, d := range drop {
			if s.sameEnvName(p, d) {
				return errs.New(errs.InvalidArgument, "%s is both passed through and dropped; remove it from one of the two lists", p).With("field", "envDrop")
			}
		}
	}
	return nil
}

func (s *Service) checkEnvList(field string, names []string) error {
	if len(names) > envpolicy.MaxNames {
		return errs.New(errs.InvalidArgument, "%s lists %d variables; keep at most %d", field, len(names), envpolicy.MaxNames).With("field", field)
	}
	for i, n := range names {
		if err := envpolicy.CheckName(n); err != nil {
			return errs.New(errs.InvalidArgument, "%s: %v", field, err).With("field", field)
		}
		for _, m := range names[:i] {
			if s.sameEnvName(n, m) {
				return errs.New(errs.InvalidArgument, "%s lists %s twice; remove one", field, n).With("field", field)
			}
		}
	}
	return nil
}

// cleanEnvLists repairs stored lists that no longer validate by keeping
// their valid names, and a name in both lists only as dropped: a damaged
// row can cost a passed variable, never expose a dropped one.
func (s *Service) cleanEnvLists(pass, drop []string) (cleanPass, cleanDrop []string) {
	cleanDrop = s.validNames(drop, nil)
	return s.validNames(pass, cleanDrop), cleanDrop
}

func (s *Service) validNames(names, exclude []string) []string {
	out := []string{}
	for _, n := range names {
		if envpolicy.CheckName(n) != nil || s.hasEnvName(out, n) || s.hasEnvName(exclude, n) {
			continue
		}
		out = append(out, n)
	}
	return out
}

func (s *Service) hasEnvName(list []string, name string) bool {
	for _, l := range list {
		if s.sameEnvName(l, name) {
			return true
		}
	}
	return false
}

// sameEnvName compares variable names as the OS does: Windows ignores case.
func (s *Service) sameEnvName(a, b string) bool {
	return a == b || (s.goos == "windows" && strings.EqualFold(a, b))
}

// EnvPolicy is the environment policy of st; providerKeys are the variables
// the model providers read their keys from (always dropped unless passed).
func (s *Service) EnvPolicy(st api.Settings, providerKeys []string) envpolicy.Policy {
	return envpolicy.Policy{Pass: st.EnvPassthrough, Drop: st.EnvDrop, ProviderKeys: providerKeys, GOOS: s.goos}
}
