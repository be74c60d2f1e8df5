// Package paths finds PI-Desktop's per-user data directory and names the
// folders inside it.
package paths

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// EnvDataDir overrides the data directory (tests, portable installs).
const EnvDataDir = "PI_DESKTOP_DATA_DIR"

const appDirName = "pi-desktop"

// Env is what data-directory resolution reads from the process.
type Env struct {
	GOOS    string
	Getenv  func(string) string
	HomeDir string
}

// Resolve picks the data directory: the --data-dir flag, then
// PI_DESKTOP_DATA_DIR, then the platform default. The result is absolute.
func Resolve(flagValue string, env Env) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = env.Getenv(EnvDataDir)
	}
	if dir == "" {
		var err error
		if dir, err = platformDefault(env); err != nil {
			return "", err
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("data directory %q: %w", dir, err)
	}
	return abs, nil
}

// platformDefault follows each OS's convention: XDG on Linux and other
// Unixes, Application Support on macOS, %APPDATA% on Windows.
func platformDefault(env Env) (string, error) {
	switch env.GOOS {
	case "windows":
		if appData := env.Getenv("APPDATA"); appData != "" {
			return filepath.Join(appData, "PI-Desktop"), nil
		}
		if env.HomeDir == "" {
			return "", errors.New("neither APPDATA nor a home directory is set; set " + EnvDataDir)
		}
		return filepath.Join(env.HomeDir, "AppData", "Roaming", "PI-Desktop"), nil
	case "darwin":
		if env.HomeDir == "" {
			return "", errors.New("no home directory; set " + EnvDataDir)
		}
		return filepath.Join(env.HomeDir, "Library", "Application Support", "PI-Desktop"), nil
	default:
		if xdg := env.Getenv("XDG_DATA_HOME"); filepath.IsAbs(xdg) {
			return filepath.Join(xdg, appDirName), nil
		}
		if env.HomeDir == "" {
			return "", errors.New("neither XDG_DATA_HOME nor a home directory is set; set " + EnvDataDir)
		}
		return filepath.Join(env.HomeDir, ".local", "share", appDirName), nil
	}
}

// ProcessEnv returns the Env of the running process.
func ProcessEnv(goos string) Env {
	home, _ := os.UserHomeDir()
	return Env{GOOS: goos, Getenv: os.Getenv, HomeDir: home}
}

// Layout names the folders inside a data directory.
type Layout struct{ Root string }

func (l Layout) Database() string       { return filepath.Join(l.Root, "pi.sqlite") }
func (l Layout) Scratch() string        { return filepath.Join(l.Root, "scratch") }
func (l Layout) Visualizations() string { return filepath.Join(l.Root, "visualizations") }
func (l Layout) Reviews() string        { return filepath.Join(l.Root, "reviews") }
func (l Layout) Worktrees() string      { return filepath.Join(l.Root, "worktrees") }
func (l Layout) Logs() string           { return filepath.Join(l.Root, "logs") }
func (l Layout) Attachments() string    { return filepath.Join(l.Root, "attachments") }

// Ensure creates the data directory and its fixed folders, private to the
// user. Per-session folders are created lazily by their owners.
func (l Layout) Ensure() error {
	for _, dir := range l.folders() {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
	}
	return nil
}

// folders lists the data directory and its fixed folders, parents first.
func (l Layout) folders() []string {
	return []string{l.Root, l.Scratch(), l.Visualizations(), l.Reviews(), l.Worktrees(), l.Logs()}
}
