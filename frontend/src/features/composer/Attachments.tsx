import { FileText, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import * as bridge from '../../bridge';
import { attachmentImageURL, budgetOf, type Attachment } from '../../bridge/attachments';
import { toBridgeError, type BridgeError } from '../../bridge/errors';

/** Bytes as a chip shows them. */
export function formatSize(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KB`;
  return `${n} B`;
}

/** A File's bytes in base64, sent once to the backend (a pasted image has no path). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsDataURL(file);
  });
}

export interface AttachmentsApi {
  list: Attachment[];
  error: BridgeError | null;
  busy: boolean;
  /** Files without a path: pasted from the clipboard, dropped on a browser page. */
  addFiles: (files: File[]) => Promise<void>;
  /** Absolute paths: dropped on the window. */
  addPaths: (paths: string[]) => Promise<void>;
  /** The system's file dialog. */
  choose: () => Promise<void>;
  remove: (path: string) => void;
  clear: () => void;
}

/** The attachments of the message being composed in sessionId (none without one). */
export function useAttachments(sessionId: string | undefined): AttachmentsApi {
  const [list, setList] = useState<Attachment[]>([]);
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState(false);
  // The budget is read when a call starts: the list of the latest render.
  const current = useRef(list);
  current.current = list;

  const run = useCallback(async (add: () => Promise<Attachment[]>) => {
    setBusy(true);
    try {
      const added = await add();
      current.current = [...current.current, ...added];
      setList(current.current);
      setError(null);
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
    }
  }, []);

  const addFiles = useCallback(
    async (files: File[]) => {
      if (!sessionId || files.length === 0) return;
      await run(async () => {
        const out: Attachment[] = [];
        // One at a time: each is checked against what the message holds by then.
        for (const f of files) {
          const data = await readBase64(f);
          out.push(await bridge.attachData(sessionId, f.name || 'pasted', data, budgetOf([...current.current, ...out])));
        }
        return out;
      });
    },
    [sessionId, run],
  );
  const addPaths = useCallback(
    async (paths: string[]) => {
      if (!sessionId || paths.length === 0) return;
      await run(() => bridge.attachFiles(sessionId, paths, budgetOf(current.current)));
    },
    [sessionId, run],
  );
  const choose = useCallback(async () => {
    if (!sessionId) return;
    await run(() => bridge.chooseFiles(sessionId, budgetOf(current.current)));
  }, [sessionId, run]);
  const remove = useCallback((path: string) => {
    current.current = current.current.filter((a) => a.path !== path);
    setList(current.current);
    setError(null);
  }, []);
  const clear = useCallback(() => {
    current.current = [];
    setList([]);
    setError(null);
  }, []);

  // Files dropped anywhere on the window arrive as paths (the Wails webview only).
  useEffect(() => {
    if (!sessionId) return;
    return bridge.onFileDrop((paths) => void addPaths(paths));
  }, [sessionId, addPaths]);

  return { list, error, busy, addFiles, addPaths, choose, remove, clear };
}

/** Chips of attachments: name, size, a thumbnail for an image; remove when onRemove is given. */
export function AttachmentChips({ list, onRemove, label = 'Attachments' }: { list: readonly Attachment[]; onRemove?: (path: string) => void; label?: string }) {
  if (list.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label={label}>
      {list.map((a) => {
        const src = attachmentImageURL(a);
        return (
          <li key={a.path} className="attachment-chip" title={a.path}>
            {src ? <img className="attachment-thumb" src={src} alt="" width={28} height={28} /> : <FileText size={16} aria-hidden="true" />}
            <span className="attachment-name">{a.name}</span>
            <span className="attachment-size muted">{formatSize(a.size)}</span>
            {onRemove && (
              <button type="button" className="attachment-remove" aria-label={`Remove ${a.name}`} onClick={() => onRemove(a.path)}>
                <X size={12} aria-hidden="true" />
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
