package provider

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// KeyStore keeps provider API keys. Keys are secrets: never logged, never
// shown in previews, never sent to the frontend (it may learn only whether
// one is set, and Where).
type KeyStore interface {
	// Get returns the key stored for api ("" with a nil error when none is).
	Get(api string) (string, error)
	// Set stores key for api; an empty key removes it.
	Set(api, key string) error
	// Where says where a key saved now goes: KeychainLocation, or the key
	// file's path.
	Where() string
	// Locate says where the key of api is: KeychainLocation, the key file's
	// path, or "" when none is saved.
	Locate(api string) (string, error)
}

// KeyFileName is the key file in the data directory.
const KeyFileName = "keys.json"

// FileKeyStore keeps keys in <data>/keys.json, mode 0600, replaced
// atomically (temporary file, fsync, rename) on every change, and removed
// when it holds no key. It is the fallback of Keys where no OS keychain is
// reachable.
type FileKeyStore struct {
	path string
	mu   sync.Mutex
}

// NewFileKeyStore returns the store for dataDir (created on first Set).
func NewFileKeyStore(dataDir string) *FileKeyStore {
	return &FileKeyStore{path: filepath.Join(dataDir, KeyFileName)}
}

// Where is the key file's path.
func (s *FileKeyStore) Where() string { return s.path }

type keyFile struct {
	Keys map[string]string `json:"keys"`
}

func (s *FileKeyStore) load() (map[string]string, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "cannot read the key file %s", s.path)
	}
	if runtime.GOOS != "windows" {
		// Tighten a file someone loosened.
		if fi, err := os.Stat(s.path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(s.path, 0o600)
		}
	}
	var kf keyFile
	if err := json.Unmarshal(data, &kf); err != nil {
		// Never wrap the JSON error: it can quote the file's content.
		return nil, errs.New(errs.StorageCorrupt, "the key file %s is not valid; remove it and enter the keys again in Settings → Models", s.path)
	}
	if kf.Keys == nil {
		kf.Keys = map[string]string{}
	}
	return kf.Keys, nil
}

// Get returns the key for api.
func (s *FileKeyStore) Get(api string) (string, error) {
	if err := checkAPIName(api); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, err := s.load()
	if err != nil {
		return "", err
	}
	return keys[api], nil
}

// Locate is the file's path when it holds a key for api, else "".
func (s *FileKeyStore) Locate(api string) (string, error) {
	k, err := s.Get(api)
	if err != nil || k == "" {
		return "", err
	}
	return s.path, nil
}

// Names lists the names that have a key in the file.
func (s *FileKeyStore) Names() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, err := s.load()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(keys))
	for n := range keys {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

// Set stores (or, with an empty key, removes) the key for api.
func (s *FileKeyStore) Set(api, key string) error {
	if err := checkAPIName(api); err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, err := s.load()
	if err != nil {
		return err
	}
	if key == "" {
		if _, ok := keys[api]; !ok {
			return nil
		}
		delete(keys, api)
	} else {
		keys[api] = key
	}
	if len(keys) == 0 {
		// Nothing secret is left: no file at all is the clearest state.
		if err := os.Remove(s.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return errs.Wrap(err, errs.StorageUnavailable, "cannot remove the key file %s", s.path)
		}
		return nil
	}
	data, err := json.MarshalIndent(keyFile{Keys: keys}, "", "  ")
	if err != nil {
		return errs.Wrap(err, errs.Internal, "cannot encode the key file")
	}
	return writeFileAtomic(s.path, append(data, '\n'))
}

func checkAPIName(api string) error {
	if strings.TrimSpace(api) == "" || len(api) > 200 {
		return errs.New(errs.InvalidArgument, "a key needs a provider name (anthropic, openai, openai-compatible, …)")
	}
	return nil
}

// writeFileAtomic writes data to a 0600 temporary file beside path, syncs it,
// and renames it over path, so a reader sees the old or the new file whole.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot create the data directory %s", dir)
	}
	f, err := os.CreateTemp(dir, ".keys-*.tmp")
	if err != nil {
		return errs.Wrap(err, errs.StorageUnavailable, "cannot write the key file in %s", dir)
	}
	tmp := f.Name()
	fail := func(err error) error {
		_ = f.Close()
		_ = os.Remove(tmp)
		return errs.Wrap(err, errs.StorageUnavailable, "cannot write the key file %s", path)
	}
	if err := f.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		return fail(err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp)
		return errs.Wrap(err, errs.StorageUnavailable, "cannot write the key file %s", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return errs.Wrap(err, errs.StorageUnavailable, "cannot replace the key file %s", path)
	}
	if d, err := os.Open(dir); err == nil { // persist the rename (best effort)
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
