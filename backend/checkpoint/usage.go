package checkpoint

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
)

// Usage is the disk a project's checkpoints take: the shadow repositories
// of its folder and of its sessions' worktrees.
type Usage struct {
	ProjectID   string `json:"projectId"`
	Bytes       int64  `json:"bytes"`
	Checkpoints int    `json:"checkpoints"`
	// Shadows counts the shadow repositories on disk (the project folder,
	// each isolated session's worktree).
	Shadows int `json:"shadows"`
}

// ProjectUsage measures the shadow repositories of a project: those its
// sessions' checkpoints name, and those of folders (the project folder).
func (s *Service) ProjectUsage(ctx context.Context, projectID string, folders ...string) (Usage, error) {
	u := Usage{ProjectID: projectID}
	keys, err := s.projectShadows(ctx, projectID, folders)
	if err != nil {
		return u, err
	}
	for _, key := range keys {
		n, ok, err := dirSize(filepath.Join(s.dir, key))
		if err != nil {
			return u, err
		}
		if ok {
			u.Bytes += n
			u.Shadows++
		}
	}
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM checkpoints c JOIN sessions s ON s.id = c.session_id WHERE s.project_id = ?`,
		projectID).Scan(&u.Checkpoints)
	return u, storageErr(err)
}

// ClearProject removes every checkpoint of a project: the rows that name
// its shadow repositories and the repositories themselves. It waits for
// a snapshot or restore running in one of them. A restore's undo goes with
// them; the workspace's files are never touched. It returns what was
// freed.
func (s *Service) ClearProject(ctx context.Context, projectID string, folders ...string) (Usage, error) {
	freed, err := s.ProjectUsage(ctx, projectID, folders...)
	if err != nil {
		return freed, err
	}
	keys, err := s.projectShadows(ctx, projectID, folders)
	if err != nil {
		return freed, err
	}
	for _, key := range keys {
		if err := s.clearShadow(ctx, key); err != nil {
			return freed, err
		}
	}
	return freed, nil
}

func (s *Service) clearShadow(ctx context.Context, key string) error {
	lock := s.lockFor(key)
	if !lock.acquire(ctx, 0) {
		return ctx.Err()
	}
	defer lock.release()
	if _, err := s.db.ExecContext(ctx, `DELETE FROM checkpoints WHERE shadow = ?`, key); err != nil {
		return storageErr(err)
	}
	return os.RemoveAll(filepath.Join(s.dir, key))
}

// lockFor is the lock of the shadow folder key (shadowFor's, by name).
func (s *Service) lockFor(key string) shadowLock {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.locks[key]
	if l == nil {
		l = make(shadowLock, 1)
		s.locks[key] = l
	}
	return l
}

// shadowName matches the folder names shadowKey makes; nothing else under
// the checkpoints folder is ever measured or removed.
var shadowName = regexp.MustCompile(`^[0-9a-f]{24}$`)

// projectShadows lists the shadow folder names of a project, sorted.
func (s *Service) projectShadows(ctx context.Context, projectID string, folders []string) ([]string, error) {
	var keys []string
	for _, f := range folders {
		if f != "" {
			keys = append(keys, shadowKey(f))
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT c.shadow FROM checkpoints c JOIN sessions s ON s.id = c.session_id WHERE s.project_id = ?`, projectID)
	if err != nil {
		return nil, storageErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return nil, storageErr(err)
		}
		keys = append(keys, key)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err)
	}
	keys = slices.DeleteFunc(keys, func(k string) bool { return !shadowName.MatchString(k) })
	slices.Sort(keys)
	return slices.Compact(keys), nil
}

// dirSize sums the sizes of the files under dir (links not followed); ok
// is false when dir does not exist.
func dirSize(dir string) (int64, bool, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil // removed while walking
			}
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	if _, statErr := os.Lstat(dir); os.IsNotExist(statErr) {
		return 0, false, nil
	}
	return n, true, err
}
