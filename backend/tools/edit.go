package tools

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

type editArgs struct {
	Path string `json:"path"`
	Tag  string `json:"tag"`
	Ops  string `json:"ops"`
}

// commitAttempts bounds how often an Edit re-plans when the file keeps
// changing between validation and the write.
const commitAttempts = 3

type editTool struct{}

func (editTool) Spec() Spec {
	return Spec{
		Name: "Edit",
		Description: "Change a file by line positions against the tag from your last Read/Grep/Write of it. Ops: " +
			"PUT N.=M: (replace lines N..M), PUT N*: (replace the block opening at N), PUT <N: / >N: / >$: (insert before N, after N, at the end), " +
			"PUT >N*: (after the block at N), each followed by +text rows; CUT N.=M [@reg], PUT <N @reg (paste), REM (delete the file), MV DEST (rename). " +
			"Line numbers refer to the tagged version; never repeat old text.",
		Class: permission.ClassEdit, Risk: permission.High, Mutates: true,
		Timeout: 30 * time.Second, Shape: WritableFile, PathArg: "path",
		Aliases: map[string]string{"file_path": "path"},
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace or absolute."},
    "file_path": {"type": "string", "description": "Alias of path."},
    "tag": {"type": "string", "pattern": "^[0-9A-Fa-f]{4}$", "description": "The file's tag from the [path#TAG] header you last saw."},
    "ops": {"type": "string", "description": "Line-anchored operations, one block per op; body rows start with +."}
  },
  "required": ["tag", "ops"],
  "additionalProperties": false
}`),
	}
}

// Precheck refuses before any card an Edit of a missing file (Write creates
// files) or of something that is not a regular file.
func (editTool) Precheck(c *Call) error {
	if err := checkVizName(*c.Target); err != nil {
		return err
	}
	fi, err := c.Resolver.Stat(*c.Target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errs.New(errs.EditTargetMissing, "%s does not exist; create it with Write", DisplayPath(*c.Target)).With("field", "path")
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errs.New(errs.InvalidArgument, "%s is not a regular file", DisplayPath(*c.Target)).With("field", "path")
	}
	return nil
}

// MoveTarget returns the MV destination as spelled in ops, "" when none.
func (editTool) MoveTarget(args json.RawMessage) string {
	var a editArgs
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	return hashline.MoveDest(a.Ops)
}

func (editTool) Run(ctx context.Context, c *Call) Result {
	var a editArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Edit arguments do not decode"))
	}
	t := *c.Target
	if err := checkVizName(t); err != nil {
		return Failure(err)
	}
	key := c.Resolver.Key(t)
	display := DisplayPath(t)
	for range commitAttempts {
		live, exists, err := readLive(c, t)
		if err != nil {
			return Failure(err)
		}
		plan, eerr := c.Edits.Plan(hashline.EditInput{Key: key, Display: display, Tag: a.Tag, Ops: a.Ops, Live: live, Exists: exists})
		if eerr != nil {
			return editFailure(c, key, eerr)
		}
		var dest *pathguard.Resolved
		if plan.MoveTo != "" {
			d, ferr := moveDestination(c, t, plan.MoveTo)
			if ferr != nil {
				return editFailure(c, key, ferr)
			}
			dest = &d
		}
		if err := ctx.Err(); err != nil {
			return Failure(errs.New(errs.ToolAborted, "Edit was stopped before it changed anything"))
		}
		// Compare-and-swap on the digest: a file changed since it was
		// validated goes back to the version check, never gets overwritten.
		// Raw bytes, not the canonical digest: a line-ending or BOM change
		// made meanwhile must not be silently reverted by NewBytes.
		same, err := unchanged(c, t, live)
		if err != nil {
			return Failure(err)
		}
		if !same {
			continue
		}
		res, err := commitEdit(ctx, c, t, dest, plan, live)
		if err != nil {
			return Failure(err)
		}
		destKey := ""
		if dest != nil {
			destKey = c.Resolver.Key(*dest)
		}
		c.Edits.Commit(key, plan, destKey)
		c.Guard.Succeed(c.PromptID, key)
		return res
	}
	return Failure(errs.New(errs.Conflict, "%s kept changing while the edit was being applied; Read it again and retry", display))
}

// moveDestination resolves an MV target. It must stay in the source's root:
// the approval covered the source path, not a second location.
func moveDestination(c *Call, src pathguard.Resolved, spelled string) (pathguard.Resolved, *hashline.EditError) {
	d, err := c.Resolver.Resolve(spelled)
	if err != nil {
		code := errs.InvalidArgument
		if errs.Is(err, errs.PathProtected) {
			code = errs.PathProtected // the data folder: not a typo to fix
		}
		return pathguard.Resolved{}, &hashline.EditError{Code: code, Retry: "fix_ops", Message: errs.ToPayload(err).Message}
	}
	if err := checkVizName(d); err != nil {
		return pathguard.Resolved{}, &hashline.EditError{Code: errs.InvalidArgument, Retry: hashline.RetryFixOps, Message: errs.ToPayload(err).Message}
	}
	if c.MoveJudged && d.Abs != c.MoveDest {
		return pathguard.Resolved{}, &hashline.EditError{Code: errs.PathOutsideWorkspace, Retry: hashline.RetryFixOps,
			Message: "the MV destination " + spelled + " now leads somewhere else than when the call was checked (a folder was swapped for a link); nothing was moved. Check the folder and retry"}
	}
	if d.Root != src.Root || d.Root == pathguard.External {
		return pathguard.Resolved{}, &hashline.EditError{Code: errs.InvalidArgument, Retry: "fix_ops",
			Message: "MV moves a file within its own folder tree (" + string(src.Root) + "); " + spelled + " is outside it. Use Write at the new place and REM here"}
	}
	if _, err := c.Resolver.Stat(d); err == nil {
		return pathguard.Resolved{}, &hashline.EditError{Code: errs.EditDestExists, Retry: hashline.RetryFixOps,
			Message: DisplayPath(d) + " already exists; MV never overwrites. Choose another name, or REM it first"}
	}
	return d, nil
}

// commitEdit writes the plan with its review record and builds the result.
// live is the file as validated and found unchanged just now: it is the
// review record's previous bytes, so the file is not read a third time.
func commitEdit(ctx context.Context, c *Call, t pathguard.Resolved, dest *pathguard.Resolved, plan *hashline.EditPlan, live []byte) (Result, error) {
	fi, err := c.Resolver.Stat(t)
	if err != nil {
		return Result{}, err
	}
	mode := fi.Mode().Perm()
	// The change is recorded even if the call is stopped once it has begun.
	ctx = context.WithoutCancel(ctx)
	res := Result{OK: true, Root: string(t.Root), Path: DisplayPath(t)}
	lostRecord := func(err error) {
		if err != nil {
			res.Notice = joinNotice(res.Notice, "the change was made but its review record could not be saved, so it cannot be rolled back from the review pane")
		}
	}
	fields := map[string]any{"changed": plan.Changed, "preview": plan.Preview, "resolvedBlocks": plan.ResolvedBlocks,
		"warnings": plan.Warnings, "movedTo": nil}
	if fields["resolvedBlocks"] == nil {
		fields["resolvedBlocks"] = []hashline.ResolvedBlock{}
	}
	if plan.Warnings == nil {
		fields["warnings"] = []string{}
	}
	var changes []review.Change
	switch {
	case plan.Remove:
		capture, err := c.Review.Capture(c, t)
		if err != nil {
			return Result{}, err
		}
		if err := c.Resolver.Remove(t); err != nil {
			return Result{}, err
		}
		ch, err := capture.Finish(ctx, review.OpDelete, nil)
		lostRecord(err)
		if err == nil && ch.Version != 0 {
			changes = append(changes, ch)
		}
		res.Content = "removed " + names.Escape(res.Path)
		fields["removed"] = true
	case dest != nil:
		mc, err := c.Review.captureMove(c, t, *dest)
		if err != nil {
			return Result{}, err
		}
		// Both or neither: the destination appears only if nothing is
		// there, and is taken back if the source cannot be removed.
		if err := c.Resolver.WriteFileNew(*dest, plan.NewBytes, mode); errors.Is(err, fs.ErrExist) {
			return Result{}, errs.New(errs.EditDestExists, "%s appeared meanwhile; MV never overwrites", DisplayPath(*dest))
		} else if err != nil {
			return Result{}, err
		}
		if err := c.Resolver.Remove(t); err != nil {
			if landed, rerr := readAll(c, *dest); rerr == nil && bytes.Equal(landed, plan.NewBytes) {
				_ = c.Resolver.Remove(*dest)
			}
			return Result{}, err
		}
		landed, err := readAll(c, *dest)
		if err != nil {
			landed = plan.NewBytes
		}
		chs, err := mc.Finish(ctx, nil, landed)
		lostRecord(err)
		changes = append(changes, chs...)
		moved := DisplayPath(*dest)
		fields["movedTo"] = moved
		fields["tag"], fields["header"] = plan.NewTag(), hashline.Header(moved, plan.NewTag())
		res.Content = hashline.Header(moved, plan.NewTag()) + "\n" + plan.Preview
	default:
		capture, err := c.Review.captureBytes(c, t, live, bytesSum(plan.LiveDigest, plan.LiveIsBytes))
		if err != nil {
			return Result{}, err
		}
		capture.StartSnapshot() // written beside the file's own write
		if err := c.Resolver.WriteFileAtomic(t, plan.NewBytes, mode); err != nil {
			capture.Abandon()
			return Result{}, err
		}
		landedSum := ""
		landed, err := readBackEdit(c, t, plan.NewBytes)
		if err != nil {
			landed = plan.NewBytes
		} else if c.Outcome != nil {
			c.Outcome.Landed = landed
		}
		if bytes.Equal(landed, plan.NewBytes) {
			landedSum = bytesSum(plan.NewDigest(), plan.NewIsBytes)
		}
		ch, err := capture.FinishSum(ctx, review.OpEdit, landed, landedSum)
		lostRecord(err)
		if err == nil && ch.Version != 0 {
			changes = append(changes, ch)
		}
		// The bytes as written are the plan's: equal bytes need no hash.
		if !bytes.Equal(landed, plan.NewBytes) && hashline.DigestOf(landed) != plan.NewDigest() {
			res.Notice = joinNotice(res.Notice, "post-write drift: the file on disk differs from the edit; Read it before the next Edit")
		}
		fields["tag"], fields["header"] = plan.NewTag(), hashline.Header(res.Path, plan.NewTag())
		res.Content = hashline.Header(res.Path, plan.NewTag()) + "\n" + plan.Preview
	}
	if len(changes) > 0 {
		fields["review"] = changes
	}
	res.Fields = fields
	return res, nil
}

// readBackEdit reads back what t holds after a write of wrote: wrote itself
// when the file holds exactly those bytes (compared in chunks, so a large
// file is not copied once more), else the bytes read.
func readBackEdit(c *Call, t pathguard.Resolved, wrote []byte) ([]byte, error) {
	if same, err := unchanged(c, t, wrote); err == nil && same {
		return wrote, nil
	}
	return readAll(c, t)
}

// editFailure turns a contract error into the structured result of
// edit-contract §7, counting it against the loop guard (§8).
func editFailure(c *Call, key string, e *hashline.EditError) Result {
	r := Result{OK: false, Code: e.Code, Message: e.Message, Details: e.Details, Path: DisplayPath(*c.Target), Root: string(c.Target.Root)}
	r = guarded(c, key, r, e.Retry)
	if e.LiveTag != "" {
		r.Fields["liveTag"] = e.LiveTag
	}
	return r
}

// readLive reads the file an Edit targets, bounded by the text limit.
func readLive(c *Call, t pathguard.Resolved) ([]byte, bool, error) {
	data, err := readAll(c, t)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// bytesSum is d in hex when it is known to be the SHA-256 of the bytes in
// question, "" (compute it) otherwise.
func bytesSum(d hashline.Digest, isBytes bool) string {
	if !isBytes {
		return ""
	}
	return hex.EncodeToString(d[:])
}

// unchanged reports whether t still holds exactly the bytes live (a file
// removed meanwhile does not).
func unchanged(c *Call, t pathguard.Resolved, live []byte) (bool, error) {
	f, err := c.Resolver.OpenFile(t, readOnly, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	return sameContent(f, live)
}

// Preview applies the ops in memory (a dry-run plan: the session's store is
// left as it was) and diffs the result against the file as it is now. An
// edit that would fail shows no diff; the run reports the failure as usual.
func (editTool) Preview(ctx context.Context, c *Call) ChangePreview {
	var a editArgs
	if err := json.Unmarshal(c.Args, &a); err != nil || ctx.Err() != nil || c.Edits == nil {
		return ChangePreview{}
	}
	live, present, note := readForPreview(c)
	if note != "" || !present {
		return ChangePreview{Note: note}
	}
	t := *c.Target
	plan, eerr := c.Edits.Plan(hashline.EditInput{Key: c.Resolver.Key(t), Display: DisplayPath(t), Tag: a.Tag, Ops: a.Ops,
		Live: live, Exists: true, DryRun: true})
	if eerr != nil {
		return ChangePreview{Note: "no diff preview: the edit does not apply to the current file as it stands (" + string(eerr.Code) + ")"}
	}
	if plan.Remove {
		return preview(live, true, nil, false)
	}
	p := preview(live, true, plan.NewBytes, true)
	if plan.MoveTo != "" {
		p.Note = joinNotice("moves the file to "+plan.MoveTo, p.Note)
	}
	return p
}
