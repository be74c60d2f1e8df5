//go:build linux && (dev || production)

package desktop

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

// pi_origin_of is "scheme://host:port" of uri, or NULL when it has none
// (about:, data:): the caller frees it.
static char *pi_origin_of(const char *uri) {
	if (uri == NULL) return NULL;
	GUri *u = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
	if (u == NULL) return NULL;
	char *o = NULL;
	if (g_uri_get_host(u) != NULL)
		o = g_strdup_printf("%s://%s:%d", g_uri_get_scheme(u), g_uri_get_host(u), g_uri_get_port(u));
	g_uri_unref(u);
	return o;
}

// pi_keep_app decides the web view's navigations: the window's own
// document may only ever be the app (the origin of its first document), and
// no page opens a window. Subframes (cards, the preview pane) load what
// they like: the user script above cuts them off the bridge, but a
// top-level document has the bridge, so a frame that navigated the window
// to its own page would call bound methods. Checked at the response, the
// one decision that says whether the load is the window's main resource.
static gboolean pi_keep_app(WebKitWebView *wv, WebKitPolicyDecision *d, WebKitPolicyDecisionType type, gpointer data) {
	char **app = data;
	if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
		webkit_policy_decision_ignore(d);
		return TRUE;
	}
	if (type != WEBKIT_POLICY_DECISION_TYPE_RESPONSE) return FALSE;
	WebKitResponsePolicyDecision *r = WEBKIT_RESPONSE_POLICY_DECISION(d);
	if (!webkit_response_policy_decision_is_main_frame_main_resource(r)) return FALSE;
	char *to = pi_origin_of(webkit_uri_request_get_uri(webkit_response_policy_decision_get_request(r)));
	if (*app == NULL && to != NULL) {
		*app = to; // the app's first document names its origin
		return FALSE;
	}
	gboolean same = to != NULL && *app != NULL && strcmp(to, *app) == 0;
	g_free(to);
	if (same) return FALSE;
	g_warning("PI-Desktop kept its window on the app: a page tried to load another document in it");
	webkit_policy_decision_ignore(d);
	return TRUE;
}

// Runs on the GTK main loop: adds the script to every Wails web view's
// content manager and the navigation policy to the view (Wails creates one
// window with one web view, and connects no policy handler of its own).
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
		char **app = g_new0(char *, 1); // lives as long as the view
		g_signal_connect(wv, "decide-policy", G_CALLBACK(pi_keep_app), app);
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
