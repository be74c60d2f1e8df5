package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/viz"
)

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
	Tag     string `json:"tag"`
}

type writeTool struct{}

func (writeTool) Spec() Spec {
	return Spec{
		Name:        "Write",
		Description: "Create a file, or replace one whose current tag you pass (from Read or Grep). Returns the new [path#TAG].",
		Class:       permission.ClassEdit, Risk: permission.High, Mutates: true,
		Timeout: 30 * time.Second, Shape: WritableFile, PathArg: "path",
		Aliases: map[string]string{"file_path": "path"},
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace or absolute."},
    "file_path": {"type": "string", "description": "Alias of path."},
    "content": {"type": "string", "description": "The complete new file content."},
    "tag": {"type": "string", "pattern": "^[0-9A-Fa-f]{4}$", "description": "Required to overwrite an existing file: its current tag."}
  },
  "required": ["content"],
  "additionalProperties": false
}`),
	}
}

// pastedHeader matches a "[path#TAG]" line a model copied from Read output.
var pastedHeader = regexp.MustCompile(`^\[[^\n]*#[0-9A-Fa-f]{4}\]\r?\n`)

// numberedRow matches a Read row prefix "N:" (or a clipped "N~:").
var numberedRow = regexp.MustCompile(`^[1-9][0-9]*(~?):`)

// stripPasted removes a pasted "[path#TAG]" header and the "N:" prefixes
// below it. A clipped row (N~:) cannot be written back faithfully.
func stripPasted(content string) (string, error) {
	loc := pastedHeader.FindStringIndex(content)
	if loc == nil {
		return content, nil
	}
	body := content[loc[1]:]
	final := strings.HasSuffix(body, "\n")
	rows := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	for i, row := range rows {
		m := numberedRow.FindStringSubmatchIndex(row)
		if m == nil {
			return content, nil // not a pasted Read block after all: keep as given
		}
		if m[3] > m[2] {
			return "", errs.New(errs.InvalidArgument, "content line %d is a clipped Read row (N~:); its text is incomplete. Read the file with wide:true or write the full text", i+1).With("field", "content")
		}
		rows[i] = row[m[1]:]
	}
	out := strings.Join(rows, "\n")
	if final {
		out += "\n"
	}
	return out, nil
}

// Precheck refuses, before any approval card, an overwrite without a tag
// and a target that is not a regular file.
func (writeTool) Precheck(c *Call) error {
	var a writeArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return errs.Wrap(err, errs.InvalidArgument, "Write arguments do not decode")
	}
	if err := checkVizName(*c.Target); err != nil {
		return err
	}
	fi, err := c.Resolver.Stat(*c.Target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errs.New(errs.InvalidArgument, "%s is not a regular file; choose a file path", DisplayPath(*c.Target)).With("field", "path")
	case a.Tag == "":
		return errs.New(errs.EditTagRequired, "%s already exists; Read it and pass its tag to overwrite it", DisplayPath(*c.Target)).With("field", "tag")
	}
	return nil
}

func (writeTool) Run(ctx context.Context, c *Call) Result {
	var a writeArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Write arguments do not decode"))
	}
	target := *c.Target
	display := DisplayPath(target)
	if err := checkVizName(target); err != nil {
		return Failure(err)
	}
	content, err := stripPasted(a.Content)
	if err != nil {
		return Failure(err)
	}
	key := c.Resolver.Key(target)
	created := false
	mode := fs.FileMode(0o644)
	var live []byte
	fi, err := c.Resolver.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		created = true
	case err != nil:
		return Failure(err)
	case !fi.Mode().IsRegular():
		return Failure(errs.New(errs.InvalidArgument, "%s is not a regular file; choose a file path", display).With("field", "path"))
	default:
		mode = fi.Mode().Perm()
		if live, err = checkWriteTag(c, target, display, a.Tag); err != nil {
			return mutationFailure(c, key, err)
		}
	}
	if target.Root == pathguard.Scratch || target.Root == pathguard.Visualization {
		// Host-owned roots are created lazily, on the first write.
		if err := os.Mkdir(target.RootDir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return Failure(errs.Wrap(err, errs.ToolFailed, "cannot create %s", target.RootDir))
		}
	}
	if err := ctx.Err(); err != nil {
		return Failure(errs.New(errs.ToolAborted, "Write was stopped before it changed anything"))
	}
	// No workspace change without its review snapshot: a failed capture
	// fails the call before anything is written.
	capture, err := c.Review.Capture(c, target)
	if err != nil {
		return Failure(err)
	}
	capture.StartSnapshot() // the previous bytes, written beside the new ones
	if created {
		// Created exclusively: a file that appeared since the check is kept.
		if err := c.Resolver.WriteFileNew(target, []byte(content), mode); errors.Is(err, fs.ErrExist) {
			return mutationFailure(c, key, errs.New(errs.EditTagRequired, "%s was created by someone else meanwhile; Read it and pass its tag to overwrite it", display).With("field", "tag"))
		} else if err != nil {
			return Failure(err)
		}
	} else {
		// Compare-and-swap: the bytes validated against the tag must still
		// be the ones on disk right before the rename.
		if now, err := readAll(c, target); err != nil || !bytes.Equal(now, live) {
			capture.Abandon()
			return mutationFailure(c, key, errs.New(errs.EditTagMismatch, "%s changed while it was being written; Read it again and use the new tag", display).With("field", "tag"))
		}
		if err := c.Resolver.WriteFileAtomic(target, []byte(content), mode); err != nil {
			capture.Abandon()
			return Failure(err)
		}
	}
	// Record the change even if the call was stopped meanwhile: it happened.
	ctx = context.WithoutCancel(ctx)
	landed, size, err := readLanded(c, target)
	if err != nil {
		// Unreadable right after the write: record what was sent.
		landed, size = []byte(content), int64(len(content))
	} else if c.Outcome != nil && size == int64(len(landed)) {
		c.Outcome.Landed = landed
	}
	res := Result{OK: true, Root: string(target.Root), Path: display}
	fields := map[string]any{"created": created, "bytes": size}
	irreversible := false
	if change, err := capture.Finish(ctx, review.OpWrite, landed); err != nil {
		res.Notice = joinNotice(res.Notice, "the change was made but its review record could not be saved, so it cannot be rolled back from the review pane")
	} else if change.Version != 0 {
		fields["review"] = []review.Change{change}
		irreversible = !change.Reversible
	}
	if size > hashline.MaxTextBytes {
		verb := "updated"
		if created {
			verb = "created"
		}
		return largeWriteResult(res, fields, display, verb, size, landed, irreversible)
	}
	if hashline.IsBinary(landed) {
		fields["binary"] = true
		res.Content = "wrote " + display + " (not text: no tag)"
	} else {
		text := hashline.Decode(landed)
		tag := text.Digest().Tag()
		drift := string(landed) != content
		if c.Edits != nil {
			// Every line the model sent is seen; if something else landed (a
			// formatter, a concurrent writer), none of it was displayed.
			var seen hashline.LineSet
			if len(text.Lines) > 0 && !drift {
				seen = hashline.LineRange(1, len(text.Lines))
			}
			c.Edits.Record(key, text, seen)
			c.Guard.Succeed(c.PromptID, key)
		}
		header := hashline.Header(display, tag)
		fields["tag"], fields["header"], fields["lines"] = tag, header, len(text.Lines)
		verb := "updated"
		if created {
			verb = "created"
		}
		res.Content = header + "\n" + verb + " " + names.Escape(display)
		if drift {
			res.Notice = joinNotice(res.Notice, "post-write drift: the file on disk differs from the content sent; Read it before editing")
		}
		if target.Root == pathguard.Visualization {
			// Compiled, never run: the model learns of a broken card now.
			check := viz.Check(landed)
			fields["vizCheck"] = check
			res.Content += "\n\n" + check.Text(target.Abs)
		}
	}
	res.Fields = fields
	return res
}

// mutationFailure is a failed Write/Edit result that counts against the
// loop guard (edit-contract §8) and says how to retry.
func mutationFailure(c *Call, key string, err error) Result {
	retry := hashline.RetryFixOps
	switch errs.CodeOf(err) {
	case errs.EditTagUnknown, errs.EditTagMismatch:
		retry = hashline.RetryAfterRead
	}
	return guarded(c, key, Failure(err), retry)
}

// guarded counts a failed Write/Edit of key against the session's loop
// guard and adds what the model needs to recover: how to retry, the guard
// state, and on the terminating failure an error-specific hint.
func guarded(c *Call, key string, r Result, retry string) Result {
	if c.Guard == nil {
		return r
	}
	guard := c.Guard.Fail(c.PromptID, key, r.Code)
	if guard.Terminate {
		r.Message += " " + hashline.RecoveryHint(r.Code)
	}
	r.Fields = map[string]any{"retry": retry, "guard": guard}
	return r
}

// checkWriteTag requires, before an overwrite, a tag naming a version this
// session was shown whose full digest is the live file's, so a file changed
// since the model read it is never silently replaced. It returns the live
// bytes it validated.
func checkWriteTag(c *Call, target pathguard.Resolved, display, tag string) ([]byte, error) {
	if tag == "" {
		return nil, errs.New(errs.EditTagRequired, "%s already exists; Read it and pass its tag to overwrite it", display).With("field", "tag")
	}
	live, err := readAll(c, target)
	if err != nil {
		return nil, err
	}
	if hashline.IsBinary(live) {
		return nil, errs.New(errs.EditNotText, "%s is not a text file, so it has no tag and cannot be overwritten with Write", display).With("field", "path")
	}
	digest := hashline.DigestOf(live)
	if c.Edits == nil { // no session store (unit use): the tag itself must match
		if !strings.EqualFold(digest.Tag(), tag) {
			return nil, errs.New(errs.EditTagMismatch, "%s changed since tag %s was read; Read it again and use the new tag", display, strings.ToUpper(tag)).With("field", "tag")
		}
		return live, nil
	}
	cands := c.Edits.Candidates(c.Resolver.Key(target), strings.ToUpper(tag))
	if len(cands) == 0 {
		return nil, errs.New(errs.EditTagUnknown, "tag %s is not one this session was shown for %s; Read the file and use the tag it prints", strings.ToUpper(tag), display).With("field", "tag")
	}
	for _, v := range cands {
		if v.Digest == digest {
			return live, nil
		}
	}
	return nil, errs.New(errs.EditTagMismatch, "%s changed since tag %s was read; Read it again and use the new tag", display, strings.ToUpper(tag)).With("field", "tag").With("expectedTag", strings.ToUpper(tag))
}

func readAll(c *Call, target pathguard.Resolved) ([]byte, error) {
	f, err := c.Resolver.OpenFile(target, readOnly, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSized(f, hashline.MaxTextBytes)
}

// Preview diffs the content Write would store against the file as it is
// now (a new file is all additions).
func (writeTool) Preview(ctx context.Context, c *Call) ChangePreview {
	var a writeArgs
	if err := json.Unmarshal(c.Args, &a); err != nil || ctx.Err() != nil {
		return ChangePreview{}
	}
	content, err := stripPasted(a.Content)
	if err != nil {
		return ChangePreview{Note: "no diff preview: the content is not valid as given"}
	}
	live, present, note := readForPreview(c)
	if note != "" {
		return ChangePreview{Note: note}
	}
	return preview(live, present, []byte(content), true)
}
