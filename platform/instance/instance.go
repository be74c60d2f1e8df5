// Package instance keeps one PI-Desktop per data folder. The first start
// on a folder holds its lock file and listens on a local socket; a later
// start on the same folder (a second launch, a file manager opening a
// .piplug) hands its arguments to that one over the socket and exits, so
// two apps never share one database, scratch sweep and checkpoints.
//
// Not Wails' SingleInstanceLock: that is one per app id rather than per
// data folder, needs a D-Bus session bus on Linux (without one it lets the
// second app start), and its second instance exits with status 1.
package instance

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Request is what a later start hands over: its arguments and the folder
// it was started in (relative paths are relative to it).
type Request struct {
	Args []string `json:"args"`
	Dir  string   `json:"dir"`
}

// Limits of a hand-off: a request is one JSON line of at most maxRequest
// bytes, read within ioTimeout.
const (
	maxRequest = 1 << 20
	ioTimeout  = 5 * time.Second
	// dialWait is how long a later start keeps trying to reach a first one
	// that holds the lock but may not listen yet (it is still starting).
	dialWait = 10 * time.Second
	ack      = "ok\n"
)

// Acquire's answers besides a Primary. Any other error is the data folder
// itself failing (not writable).
var (
	// ErrHandedOff: another app on the folder took the request; the caller
	// exits without starting.
	ErrHandedOff = errors.New("handed over to the PI-Desktop already open on this data folder")
	// ErrNoAnswer: another process holds the folder but never took the
	// request (hung, or still starting after the wait).
	ErrNoAnswer = errors.New("the data folder is in use")
	// ErrTooLarge: the request is over the hand-off's limit.
	ErrTooLarge = errors.New("request too large")
)

// Primary is the app that holds a data folder. Close releases it.
type Primary struct {
	lock     *os.File
	ln       net.Listener
	sockPath string
	wg       sync.WaitGroup
	once     sync.Once
}

// Acquire makes this process the one app on dataDir, or hands req to the
// app that already is and returns ErrHandedOff. handle receives each later
// start's request, one at a time, from a goroutine of the Primary.
func Acquire(ctx context.Context, dataDir string, req Request, handle func(Request)) (*Primary, error) {
	return acquire(ctx, dataDir, req, handle, dialWait)
}

// acquire is Acquire trying for at most wait to either take the lock or
// reach the app that holds it: that app may still be starting (locked, not
// listening yet) or just have quit (the lock frees with it).
func acquire(ctx context.Context, dataDir string, req Request, handle func(Request), wait time.Duration) (*Primary, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the data folder %s: %w; check that it is writable or pass --data-dir", dataDir, err)
	}
	line, err := json.Marshal(req)
	if err != nil || len(line) >= maxRequest {
		return nil, fmt.Errorf("%w: the arguments to hand over are over %d bytes; pass fewer", ErrTooLarge, maxRequest)
	}
	line = append(line, '\n')
	sock := socketPath(dataDir)
	deadline := time.Now().Add(wait)
	for {
		lock, held, err := tryLock(filepath.Join(dataDir, "instance.lock"))
		if err != nil {
			return nil, fmt.Errorf("cannot lock the data folder %s: %w; check that it is writable or pass --data-dir", dataDir, err)
		}
		if held {
			return listen(lock, sock, handle)
		}
		sendErr := sendOnce(ctx, sock, line)
		if sendErr == nil {
			return nil, ErrHandedOff
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%w: another PI-Desktop holds the data folder %s but did not answer (%v); close it, or start with another --data-dir",
				ErrNoAnswer, dataDir, sendErr)
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// listen starts the Primary once the lock is held: a socket left by an app
// that died is stale, so it is replaced.
func listen(lock *os.File, sock string, handle func(Request)) (*Primary, error) {
	_ = os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err == nil {
		// Only this user's processes may hand the app anything, whatever
		// the umask or the data folder's mode.
		if err = os.Chmod(sock, 0o600); err != nil {
			_ = ln.Close()
		}
	}
	if err != nil {
		_ = lock.Close()
		return nil, fmt.Errorf("cannot listen on %s for later starts: %w; check that the data folder is writable", sock, err)
	}
	p := &Primary{lock: lock, ln: ln, sockPath: sock}
	p.wg.Add(1)
	go p.serve(handle)
	return p, nil
}

// Close stops listening and releases the folder.
func (p *Primary) Close() error {
	if p == nil {
		return nil
	}
	var err error
	p.once.Do(func() {
		err = p.ln.Close()
		p.wg.Wait()
		_ = os.Remove(p.sockPath)
		err = errors.Join(err, p.lock.Close())
	})
	return err
}

func (p *Primary) serve(handle func(Request)) {
	defer p.wg.Done()
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		// One at a time: hand-offs are rare, and the handler then sees
		// them in the order they came.
		if req, err := readRequest(conn); err == nil {
			handle(req)
			_, _ = conn.Write([]byte(ack))
		}
		_ = conn.Close()
	}
}

func readRequest(conn net.Conn) (Request, error) {
	_ = conn.SetDeadline(time.Now().Add(ioTimeout))
	line, err := bufio.NewReaderSize(&limitReader{r: conn, n: maxRequest}, 64<<10).ReadBytes('\n')
	if err != nil {
		return Request{}, err
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return Request{}, err
	}
	return req, nil
}

// sendOnce hands line to the app listening on sock and waits for its ack.
func sendOnce(ctx context.Context, sock string, line []byte) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(ioTimeout))
	if _, err := conn.Write(line); err != nil {
		return err
	}
	got := make([]byte, len(ack))
	if _, err := io.ReadFull(conn, got); err != nil || string(got) != ack {
		return fmt.Errorf("no acknowledgement: %v", err)
	}
	return nil
}

// socketPath is the folder's socket: inside it when the path fits a Unix
// socket address (104 bytes on macOS, 108 on Linux), else in the user's
// runtime or temp folder under a name derived from the folder.
func socketPath(dataDir string) string {
	p := filepath.Join(dataDir, "instance.sock")
	if len(p) < 100 {
		return p
	}
	sum := sha256.Sum256([]byte(dataDir))
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" {
		// A folder of this user's in the shared temp folder, so another
		// user cannot take the name first.
		base = filepath.Join(os.TempDir(), fmt.Sprintf("pi-desktop-%d", os.Getuid()))
		_ = os.Mkdir(base, 0o700)
		if fi, err := os.Lstat(base); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			return filepath.Join(dataDir, "instance.sock") // too long to listen on: this start fails closed
		}
	}
	return filepath.Join(base, "pi-desktop-"+hex.EncodeToString(sum[:8])+".sock")
}
