package hostcore

import (
	"os"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/envpolicy"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/platform/proc"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// providerKeyEnvs are the variables the model providers read their API keys
// from (provider.ConfigFromEnv): dropped from every command unless the user
// passes them through.
var providerKeyEnvs = []string{provider.EnvAnthropicKey, provider.EnvOpenAIKey}

// hostEnviron is the environment commands start from before the policy.
func (c *Core) hostEnviron() []string {
	if c.cfg.Environ != nil {
		return c.cfg.Environ
	}
	return os.Environ()
}

// envPolicy is the environment policy of the given settings.
func (c *Core) envPolicy(s api.Settings) envpolicy.Policy {
	return c.settings.EnvPolicy(s, providerKeyEnvs)
}

// commandEnviron is the environment of a command the agent starts (Bash,
// background tasks, worktree setup and, later, MCP servers): the host's,
// filtered by the policy of the given settings.
func (c *Core) commandEnviron(s api.Settings) []string {
	return c.envPolicy(s).Environ(c.hostEnviron())
}

// newPathProbe is the login-shell PATH probe of a host: in a process tree
// the runner owns, so that no probe outlives its answer, its bound, Close
// or the host itself. Without a runner binary it falls back to the probe's
// own process group.
func newPathProbe(cfg Config, env []string) *shells.PathProbe {
	runner := cfg.RunnerExe
	if runner == "" {
		runner, _ = proc.DefaultRunner()
	}
	return &shells.PathProbe{Env: env, RunnerExe: runner}
}

// WarmPathProbe starts the login-shell PATH probe in the background, so
// that the first command does not wait for it; it does nothing once the
// probe ran, while it runs, or after Close. Hosts with
// Config.DeferPathProbe call it when their start is over.
func (c *Core) WarmPathProbe() { c.probe.Start() }
