package toolcli

import (
	"context"
	"fmt"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// restore runs {"op":"restore"}: a preview (what would change, the
// conflicts) or the restore itself, through the same host calls as the
// window.
func (d *driver) restore(ctx context.Context, sessionID string, line Line, n int) tools.Result {
	if line.CheckpointID == "" {
		return tools.Failure(errs.New(errs.InvalidArgument, `script line %d: restore needs checkpointId; list them with {"op":"checkpoints"}`, n).With("field", "checkpointId"))
	}
	if line.Preview {
		if line.Overwrite.Any() {
			return tools.Failure(errs.New(errs.InvalidArgument, "script line %d: a preview changes nothing, so overwrite does not apply; drop one of them", n).With("field", "overwrite"))
		}
		plan, err := d.core.PreviewRestore(ctx, sessionID, line.CheckpointID)
		if err != nil {
			return tools.Failure(err)
		}
		return tools.Result{OK: true, Message: fmt.Sprintf("restoring would change %d file(s); %d conflict(s) would be kept unless overwrite", len(plan.Files), plan.Conflicts),
			Fields: map[string]any{"plan": plan}}
	}
	res, err := d.core.RestoreCheckpoint(ctx, sessionID, line.CheckpointID, line.Overwrite)
	if err != nil {
		return tools.Failure(err)
	}
	msg := fmt.Sprintf("restored %d file(s), skipped %d; undo with {\"op\":\"restore\",\"checkpointId\":%q}", len(res.Restored), len(res.Skipped), res.Before.ID)
	return tools.Result{OK: true, Message: msg, Fields: map[string]any{"restore": res}}
}
