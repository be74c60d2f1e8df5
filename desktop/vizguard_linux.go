//go:build linux && (dev || production)

package desktop

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <stdint.h>
#include <stdlib.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

extern void piVizGuardDone(uintptr_t handle, int views);

typedef struct { char *src; uintptr_t handle; int tries; } pi_guard;

static WebKitWebView *pi_find_webview(GtkWidget *w) {
	if (WEBKIT_IS_WEB_VIEW(w)) return WEBKIT_WEB_VIEW(w);
	if (!GTK_IS_CONTAINER(w)) return NULL;
	GList *kids = gtk_container_get_children(GTK_CONTAINER(w));
	WebKitWebView *found = NULL;
	for (GList *l = kids; l != NULL && found == NULL; l = l->next) found = pi_find_webview(GTK_WIDGET(l->data));
	g_list_free(kids);
	return found;
}

// Runs on the GTK main loop: adds the script to every Wails web view's
// content manager (Wails creates one window with one web view).
static gboolean pi_guard_install(gpointer data) {
	pi_guard *g = data;
	int views = 0;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l != NULL; l = l->next) {
		WebKitWebView *wv = pi_find_webview(GTK_WIDGET(l->data));
		if (wv == NULL) continue;
		WebKitUserContentManager *m = webkit_web_view_get_user_content_manager(wv);
		WebKitUserScript *s = webkit_user_script_new(g->src, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
			WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
		webkit_user_content_manager_add_script(m, s);
		webkit_user_script_unref(s);
		views++;
	}
	g_list_free(tops);
	if (views == 0 && ++g->tries < 50) return G_SOURCE_CONTINUE;
	piVizGuardDone(g->handle, views);
	free(g->src);
	free(g);
	return G_SOURCE_REMOVE;
}

static void pi_guard_schedule(char *src, uintptr_t handle) {
	pi_guard *g = malloc(sizeof *g);
	g->src = src;
	g->handle = handle;
	g->tries = 0;
	g_idle_add(pi_guard_install, g);
}
*/
import "C"

import "runtime/cgo"

func guardUnavailable() string {
	return "the frame guard did not install in this window, so visualizations are not shown; restart PI-Desktop"
}

// install adds guardScript to the window's web view from the GTK main loop
// and marks the guard ready when it is there. Called at startup, before the
// frontend can render a card (the main loop runs the idle callback first).
func (g *FrameGuard) Install() {
	C.pi_guard_schedule(C.CString(guardScript), C.uintptr_t(cgo.NewHandle(g)))
}

//export piVizGuardDone
func piVizGuardDone(handle C.uintptr_t, views C.int) {
	h := cgo.Handle(handle)
	g := h.Value().(*FrameGuard)
	h.Delete()
	if views > 0 {
		g.ready.Store(true)
	}
}
