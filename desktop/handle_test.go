package desktop

import (
	"errors"
	"path"
	"reflect"
	"slices"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// A backend that failed to start fails every bridge call with its startup
// error (the window shows it with its next step), never with a panic or a
// zero value; only the calls that need no backend answer on their own.
func TestEveryBridgeCallFailsWithTheStartupError(t *testing.T) {
	startup := errs.New(errs.DataDirNotWritable, "the data folder is not writable")
	down := &testApp{err: startup}
	noBackend := map[string]bool{
		"Shell.ChooseFolder":    true, // the window's picker; fails without a window instead
		"Shell.InitialSession":  true, // nil without --session
		"Shell.PendingOpens":    true, // nothing queued: nothing to look up
		"Plugins.DiscardStaged": true, // an unknown token: nothing staged to discard
	}
	methods := 0
	for _, svc := range Bind(down, "", nil) {
		v := reflect.ValueOf(svc)
		name := v.Elem().Type().Name()
		for i := range v.NumMethod() {
			m, call := v.Type().Method(i), v.Method(i)
			full := name + "." + m.Name
			methods++
			args := make([]reflect.Value, call.Type().NumIn())
			for j := range args {
				args[j] = reflect.Zero(call.Type().In(j))
			}
			out := call.Call(args)
			err, _ := out[len(out)-1].Interface().(error)
			if noBackend[full] {
				if errors.Is(err, startup) {
					t.Errorf("%s reached the backend", full)
				}
				continue
			}
			if !errors.Is(err, startup) {
				t.Errorf("%s = %v, want the startup error", full, err)
			}
		}
	}
	// The bridge's whole surface: a method added or dropped is a change of
	// frontend/wailsjs and src/bridge too.
	if methods != 106 {
		t.Errorf("%d bound methods, want 106", methods)
	}
}

// Wails names a bound method package.Struct.Method; scripts/vizprobe posts
// this one from a visualization frame, so it must stay bound or the
// real-window escape probe (make test-viz-escape) would pass vacuously.
func TestTheEscapeProbesTargetIsBound(t *testing.T) {
	const target = "desktop.Sessions.RenameSession"
	var bound []string
	for _, svc := range Bind(&testApp{}, "", nil) {
		typ := reflect.TypeOf(svc)
		for i := range typ.NumMethod() {
			bound = append(bound, path.Base(typ.Elem().PkgPath())+"."+typ.Elem().Name()+"."+typ.Method(i).Name)
		}
	}
	if !slices.Contains(bound, target) {
		t.Errorf("%s is not bound (bound: %v)", target, bound)
	}
}
