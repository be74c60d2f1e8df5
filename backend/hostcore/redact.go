package hostcore

import (
	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/redact"
)

// redactTaskOutput hides secrets in a task's output before the UI shows
// it. The model reads tasks through BashOutput, whose result the agent
// stores redacted like any other; the task's own buffers stay raw.
func redactTaskOutput(out bgtask.TaskOutput, err error) (bgtask.TaskOutput, error) {
	out.Stdout.Text = redact.String(out.Stdout.Text)
	out.Stderr.Text = redact.String(out.Stderr.Text)
	return out, err
}
