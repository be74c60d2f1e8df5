import { BarChart3, TriangleAlert } from 'lucide-react';
import { memo, useEffect, useRef, useState } from 'react';
import { vizRoute } from './directive';
import './visualize.css';

const MIN_HEIGHT = 80;
const MAX_HEIGHT = 1200;
const MAX_ERROR = 500;

interface Props {
  sessionId: string;
  file: string;
  title: string;
}

/**
 * One visualization: the host shell page in an iframe sandboxed to scripts only (an
 * opaque origin: no access to the app, its storage or other sessions). The frame
 * talks back only by postMessage, and only messages from this frame's own window are
 * read: its content height and the first uncaught script error, shown as plain text
 * while the frame stays.
 */
export const VizCard = memo(function VizCard({ sessionId, file, title }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [height, setHeight] = useState(360);
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      const own = frame.current?.contentWindow;
      if (!own || e.source !== own) return;
      const d: unknown = e.data;
      if (typeof d !== 'object' || d === null) return;
      const msg = d as { type?: unknown; message?: unknown; height?: unknown };
      if (msg.type === 'pi-viz-error' && typeof msg.message === 'string') {
        const text = msg.message.slice(0, MAX_ERROR);
        setError((prev) => prev ?? text);
      } else if (msg.type === 'pi-viz-size' && typeof msg.height === 'number' && Number.isFinite(msg.height)) {
        setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(msg.height))));
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  const label = title || file;
  return (
    <figure className="viz-card" aria-label={`Visualization: ${label}`}>
      <figcaption className="viz-card-title">
        <BarChart3 size={13} aria-hidden="true" />
        <span>{label}</span>
      </figcaption>
      <iframe
        ref={frame}
        className="viz-card-frame"
        title={label}
        src={vizRoute(sessionId, file, theme)}
        sandbox="allow-scripts"
        referrerPolicy="no-referrer"
        style={{ height }}
      />
      {error !== null && (
        <p className="viz-card-error" role="alert">
          <TriangleAlert size={13} aria-hidden="true" />
          <span>Script error: {error}</span>
        </p>
      )}
    </figure>
  );
});
