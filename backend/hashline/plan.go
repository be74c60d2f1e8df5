package hashline

import (
	"crypto/sha256"
	"path"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/names"
)

// EditInput is one Edit call with the live file bytes the caller just read.
type EditInput struct {
	Key     string // store key: canonical absolute path (case-folded on case-insensitive volumes)
	Display string // the path as the model writes it
	Tag     string
	Ops     string
	// Live is the live file's bytes; nil with Exists=false when the file
	// is missing. The plan refers to them without copying: they must not
	// change once handed to Plan.
	Live   []byte
	Exists bool
	// DryRun plans without touching the store, for an approval card's
	// preview: an error reveal there is shown to the user, not the model,
	// so it must not count as displayed.
	DryRun bool
}

// EditPlan is a validated edit, ready to write. The package does no I/O: the
// caller re-checks LiveDigest against the file right before its atomic
// write (on mismatch it calls Plan again, never overwrites), writes
// NewBytes, handles Remove/MoveTo, and then calls Store.Commit.
type EditPlan struct {
	NewBytes       []byte // complete new file bytes (BOM, terminators, final newline preserved); nil for Remove
	Remove         bool
	MoveTo         string // MV destination exactly as written; the caller resolves it and checks EDIT_DEST_EXISTS
	LiveDigest     Digest // the digest validated against; re-check before writing
	Changed        [][2]int
	Preview        string
	ResolvedBlocks []ResolvedBlock
	Warnings       []string
	Branch         string // "A" direct, "B" edges only, "C" recovered
	// LiveIsBytes and NewIsBytes report that LiveDigest (NewDigest) is also
	// the SHA-256 of the live bytes (of NewBytes): they were canonical, so a
	// caller that records byte checksums need not hash them again.
	LiveIsBytes, NewIsBytes bool

	// newDigest is the new text's digest. Plan starts hashing it and
	// returns: the caller writes the file meanwhile (an Edit of a
	// 100,000-line file hashed 6.6 MB before its write could start).
	newDigest func() Digest

	canon    string // canonical new text, recorded by Commit; "" when too large to retain
	canonLen int    // its length, which decides whether the store retains it
	lines    int
	seen     LineSet             // Seen of the new version
	regs     map[string][]string // named captures to commit
}

// NewDigest is the digest of the new text, once Plan's hash of it is done.
func (p *EditPlan) NewDigest() Digest {
	if p.newDigest == nil {
		return Digest{}
	}
	return p.newDigest()
}

// NewTag is the new version's tag (see NewDigest).
func (p *EditPlan) NewTag() string { return p.NewDigest().Tag() }

// Plan validates an Edit and computes its result, in the contract's order:
// arguments (limits, tag, grammar), live file, version (tag → candidates →
// full digest), branch A/B/C/D, lowering and conflicts, provenance, apply.
// It never writes files. The only store mutation is merging a complete error
// reveal into Seen under the live digest (a reveal is a display), and
// in.DryRun skips even that.
func (s *Store) Plan(in EditInput) (*EditPlan, *EditError) {
	ol := s.ol
	if len(in.Ops) > ol.opsBytes {
		return nil, limitErr("ops size in bytes", ol.opsBytes, len(in.Ops))
	}
	if !ValidTag(in.Tag) {
		return nil, newErr(errs.EditTagRequired, RetryFixOps,
			"Edit needs the 4-hex-digit tag from the `[%s#TAG]` header that Read, Grep or Write printed for this file", in.Display)
	}
	p, err := parseOps(in.Ops, ol)
	if err != nil {
		return nil, err
	}
	if p.hasHeader && (!strings.EqualFold(p.headerTag, in.Tag) || !samePath(p.headerPath, in.Display)) {
		return nil, newErr(errs.InvalidArgument, RetryFixOps,
			"the ops header `[%s#%s]` disagrees with the arguments (path %q, tag %s); drop the header or make it match", p.headerPath, p.headerTag, in.Display, in.Tag).
			with("header", "["+p.headerPath+"#"+p.headerTag+"]")
	}
	if !in.Exists {
		return nil, newErr(errs.EditTargetMissing, RetryNone, "%s does not exist; Edit changes existing files, create it with Write", in.Display)
	}
	if IsBinary(in.Live) {
		return nil, newErr(errs.EditNotText, RetryNone, "%s is not a text file (binary, invalid UTF-8 or over 16 MiB); it cannot be edited line by line", in.Display)
	}
	live := decodeOwned(in.Live)
	canon := live.Canonical() // the live bytes themselves when already canonical
	ld := digestString(canon)
	// Canonical text only drops a BOM and \r bytes: the same length means
	// it is the live bytes themselves.
	lv := &liveFile{text: live, canon: canon, digest: ld, lines: lineTexts(live), raw: len(canon) == len(in.Live)}

	cands := s.Candidates(in.Key, in.Tag)
	if len(cands) == 0 {
		e := newErr(errs.EditTagUnknown, RetryAfterRead,
			"tag %s is not one this session was shown for %s (or it was evicted); Read the file and rebuild the ops on the tag it prints", strings.ToUpper(in.Tag), in.Display)
		e.LiveTag = ld.Tag()
		return nil, e.with("liveTag", ld.Tag())
	}
	for _, c := range cands {
		if c.Digest == ld { // branch A
			low, err := lower(p, lv.lines, canon, in.Display, s, ol)
			if err != nil {
				return nil, s.withLive(err, ld)
			}
			if err := s.provenance(in, lv, low.anchors, c.Seen); err != nil {
				return nil, err
			}
			return s.finish(in, lv, low, 0, c.Seen, nil, "A")
		}
	}
	if edgesOnly(p) { // branch B
		low, err := lower(p, lv.lines, canon, in.Display, s, ol)
		if err != nil {
			return nil, s.withLive(err, ld)
		}
		prev, _, _ := s.lookup(in.Key, ld)
		return s.finish(in, lv, low, 0, prev.Seen, []string{"stale-tag-edges"}, "B")
	}
	// Branch C: recover from the newest retained candidate.
	cause := "no retained text for tag " + strings.ToUpper(in.Tag) + " to recover from"
	for _, base := range cands {
		if !base.Retained {
			continue
		}
		plan, err, why := s.recoverPlan(in, p, lv, base)
		if plan != nil || err != nil {
			return plan, err
		}
		cause = why
		break
	}
	return nil, s.mismatch(in, p, lv, cause) // branch D
}

// liveFile is the decoded live file.
type liveFile struct {
	text   Text
	canon  string
	digest Digest
	lines  []string
	raw    bool // canon is byte for byte the file
}

func lineTexts(t Text) []string {
	out := make([]string, len(t.Lines))
	for i, l := range t.Lines {
		out[i] = l.Text
	}
	return out
}

func (s *Store) withLive(e *EditError, d Digest) *EditError {
	e.LiveTag = d.Tag()
	return e
}

// samePath compares the header path with the argument, ignoring only
// separator style and redundant elements. A header copied from a result
// spells a hostile name escaped (Header), so that spelling matches too.
func samePath(a, b string) bool {
	if a == names.Escape(b) {
		return true
	}
	norm := func(p string) string { return path.Clean(strings.ReplaceAll(p, `\`, "/")) }
	return norm(a) == norm(b)
}

// provenance fails with EDIT_LINES_UNSEEN when an anchor was never displayed
// in full. A complete reveal merges into Seen under the live digest, so the
// identical retry succeeds; an incomplete one merges nothing, so a wide blind
// edit cannot be pushed through in small reveals.
func (s *Store) provenance(in EditInput, lv *liveFile, anchors, seen LineSet) *EditError {
	var unseen LineSet
	for _, r := range anchors.Intervals() {
		for n := r[0]; n <= r[1]; n++ {
			if !seen.Contains(n) {
				unseen.Add(n, n)
			}
		}
	}
	if unseen.Empty() {
		return nil
	}
	rows, full, complete := reveal(lv.lines, unseen)
	var e *EditError
	iv := unseen.Intervals()
	first, last := iv[0][0], iv[len(iv)-1][1]
	if complete {
		if !in.DryRun {
			s.mu.Lock()
			s.recordLocked(in.Key, lv.canon, len(lv.canon), lv.digest, len(lv.lines), full)
			s.mu.Unlock()
		}
		e = newErr(errs.EditLinesUnseen, RetrySameCall,
			"the edit anchors lines this session has not displayed; they are shown in details.unseen and now count as seen: check them and send the same call again")
	} else {
		e = newErr(errs.EditLinesUnseen, RetryAfterRead,
			"the edit anchors %d lines this session has not displayed in full; Read lines %d-%d (with wide:true and limit≤10 for long lines; lines over 16,384 runes can only be replaced with Write), then rebuild the ops", unseen.Len(), first, last)
	}
	e.LiveTag = lv.digest.Tag()
	return e.with("unseen", rows).with("complete", complete)
}

// recoverPlan runs branch C against base. It returns a plan, a hard error
// (the ops are wrong whatever the file is), or the reason it declines.
func (s *Store) recoverPlan(in EditInput, p *parsedOps, lv *liveFile, base Snapshot) (*EditPlan, *EditError, string) {
	bl := strings.Split(base.Text, "\n")
	if strings.HasSuffix(base.Text, "\n") || base.Text == "" {
		bl = bl[:len(bl)-1]
	}
	if len(bl) != base.Lines { // a text of just "\n" splits to one empty line
		bl = bl[:min(len(bl), base.Lines)]
	}
	low, err := lower(p, bl, base.Text, in.Display, s, s.ol)
	if err != nil {
		return nil, s.withLive(err, lv.digest), ""
	}
	if low.rem {
		return nil, nil, "REM deletes the whole file, so it needs the live tag"
	}
	for _, r := range low.anchors.Intervals() {
		for n := r[0]; n <= r[1]; n++ {
			if !base.Seen.Contains(n) {
				return nil, nil, "line " + itoa(n) + " was never displayed in the tagged version"
			}
		}
	}
	d, why, ok := recoverOffset(bl, lv.lines, low.anchors)
	if !ok {
		return nil, nil, why
	}
	warn := "stale-session-tag"
	if s.isHead(in.Key, base.Digest) {
		warn = "recovered: external-change"
	}
	prev := base.Seen.Map(lineMap(bl, lv.lines))
	if cur, _, ok := s.lookup(in.Key, lv.digest); ok {
		prev = prev.Union(cur.Seen)
	}
	plan, err := s.finish(in, lv, low, d, prev, []string{warn, "remapped " + signed(d)}, "C")
	return plan, err, ""
}

// finish applies low to the live file at offset d and builds the plan.
// prevSeen is the Seen set of the live text, carried into the new version.
func (s *Store) finish(in EditInput, lv *liveFile, low *lowered, d int, prevSeen LineSet, warnings []string, branch string) (*EditPlan, *EditError) {
	plan := &EditPlan{
		LiveDigest:     lv.digest,
		LiveIsBytes:    lv.raw,
		MoveTo:         low.mv,
		ResolvedBlocks: low.blocks,
		Warnings:       warnings,
		Branch:         branch,
		Changed:        [][2]int{},
	}
	if plan.ResolvedBlocks == nil {
		plan.ResolvedBlocks = []ResolvedBlock{}
	}
	if plan.Warnings == nil {
		plan.Warnings = []string{}
	}
	if low.rem {
		plan.Remove = true
		return plan, nil
	}
	if !low.content { // MV alone: the bytes move unchanged
		plan.NewBytes = append([]byte(nil), in.Live...)
		plan.newDigest, plan.NewIsBytes = func() Digest { return lv.digest }, lv.raw
		plan.canon, plan.canonLen, plan.lines, plan.seen = lv.canon, len(lv.canon), len(lv.lines), prevSeen.Clip(len(lv.lines))
		return plan, nil
	}
	r := applyAt(lv.text, low, d)
	// One pass builds the new bytes; when they are canonical (no BOM, no
	// CRLF) they are hashed as they are, and the canonical text is copied
	// out only if the store will retain it. Otherwise the text is built
	// once more without the terminators' \r.
	newBytes, plain := r.text.encode()
	var canon string
	var same bool // the canonical text is the live one
	if plain {
		same = string(newBytes) == lv.canon
		if len(newBytes) <= MaxRetainedText {
			canon = string(newBytes)
		}
	} else {
		canon = r.text.Canonical()
		same = canon == lv.canon
	}
	if same && low.mv == "" {
		e := newErr(errs.EditNoChange, RetryFixOps, "the ops leave %s unchanged; send the rows that should differ, or nothing", in.Display)
		e.LiveTag = lv.digest.Tag()
		return nil, e
	}
	plan.NewBytes = newBytes
	if len(plan.NewBytes) > MaxTextBytes {
		return nil, limitErr("new file size in bytes", MaxTextBytes, len(plan.NewBytes))
	}
	plan.newDigest = sync.OnceValue(func() Digest {
		if plain {
			return sha256.Sum256(newBytes)
		}
		return digestString(canon) // the whole canonical text when not plain
	})
	if !in.DryRun {
		go plan.newDigest() // beside the caller's write
	}
	plan.NewIsBytes = plain
	plan.Changed = append(plan.Changed, r.inserted...)
	var shown LineSet
	plan.Preview, shown = preview(r.text.Lines, r.inserted, r.points)
	seen := prevSeen.Map(r.lmap).Union(shown)
	for _, x := range r.inserted {
		seen.Add(x[0], x[1])
	}
	plan.canon, plan.canonLen, plan.lines, plan.seen, plan.regs = canon, canonLen(r.text), len(r.text.Lines), seen, low.regs
	return plan, nil
}

// mismatch builds EDIT_TAG_MISMATCH (branch D): the live rows around each
// anchor, so the model can rebuild on the live tag. Complete rows count as
// displayed: the live version is recorded with them as Seen, which is what
// lets the rebuilt call apply without another Read.
func (s *Store) mismatch(in EditInput, p *parsedOps, lv *liveFile, cause string) *EditError {
	var points [][2]int
	dup := map[int]bool{}
	for _, o := range p.ops {
		var a, b int
		switch o.loc {
		case locSpan:
			a, b = o.a, o.b
		case locBlock, locAfter, locAfterBlock:
			a, b = o.a, o.a
		case locBefore:
			if o.a == 1 {
				continue
			}
			a, b = o.a, o.a
		default:
			continue
		}
		if !dup[a] {
			dup[a] = true
			points = append(points, [2]int{a, b})
		}
	}
	ctx, full := contextRows(lv.lines, points)
	if !in.DryRun {
		s.mu.Lock()
		s.recordLocked(in.Key, lv.canon, len(lv.canon), lv.digest, len(lv.lines), full)
		s.mu.Unlock()
	}
	e := newErr(errs.EditTagMismatch, RetryAfterRead,
		"%s changed since tag %s (live tag %s) and the edit could not be remapped: %s; rebuild the ops on tag %s from details.context, or Read the file again",
		in.Display, strings.ToUpper(in.Tag), lv.digest.Tag(), cause, lv.digest.Tag())
	e.LiveTag = lv.digest.Tag()
	return e.with("expectedTag", strings.ToUpper(in.Tag)).with("liveTag", lv.digest.Tag()).
		with("cause", cause).with("context", ctx)
}
