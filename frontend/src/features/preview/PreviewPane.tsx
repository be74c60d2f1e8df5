// BrowserPreview's pane: the page the agent opened, in a frame from the loopback preview
// server (a different origin from the app's, so the page has no way to the app's
// document or its bound methods), with Reload, Open in browser and Close. It belongs to
// the session that opened it. Self-contained: a side-pane container can wrap it.
import { ExternalLink, RotateCw, X } from 'lucide-react';
import { Button } from '../../ui/Button';
import { usePreview } from './usePreview';
import './preview.css';

/**
 * The frame's sandbox. allow-same-origin keeps the page's own (loopback) origin, which
 * ES modules and the error reporter need; it is never the app's origin, and a frame
 * whose URL has the app's origin is not shown at all (see sameOriginAsApp).
 */
export const PREVIEW_SANDBOX = 'allow-scripts allow-forms allow-same-origin';

/** True when url would load with the app's own origin (a frame there could reach the app). */
export function sameOriginAsApp(url: string, appOrigin = window.location.origin): boolean {
  try {
    return new URL(url).origin === appOrigin;
  } catch {
    return true; // unparsable: refuse
  }
}

export function PreviewPane({ sessionId }: { sessionId: string }) {
  const p = usePreview(sessionId);
  if (!p.state) {
    return p.error ? (
      <p className="preview-error" role="alert">
        Preview: {p.error}
      </p>
    ) : null;
  }
  const s = p.state;
  const name = s.title || s.target;
  const unsafe = sameOriginAsApp(s.url);
  return (
    <aside className="preview-pane" aria-label="Preview">
      <header className="preview-head">
        <span className="preview-title" title={s.target}>
          {name}
        </span>
        <Button size="sm" variant="ghost" icon={<RotateCw size={14} aria-hidden="true" />} onClick={p.reload}>
          Reload
        </Button>
        <Button size="sm" variant="ghost" icon={<ExternalLink size={14} aria-hidden="true" />} onClick={p.openInBrowser}>
          Open in browser
        </Button>
        <Button size="sm" variant="ghost" icon={<X size={14} aria-hidden="true" />} aria-label="Close preview" onClick={p.close} />
      </header>
      {p.error && (
        <p className="preview-error" role="alert">
          {p.error}
        </p>
      )}
      {unsafe ? (
        <p className="preview-error" role="alert">
          {s.target} has the app's own address, so it is not shown here: a page there could reach the app. Open it in the browser instead.
        </p>
      ) : (
        <iframe
          key={`${s.url}#${s.revision}#${p.loads}`}
          className="preview-frame"
          title={`Preview: ${name}`}
          src={s.url}
          sandbox={PREVIEW_SANDBOX}
          referrerPolicy="no-referrer"
        />
      )}
    </aside>
  );
}
