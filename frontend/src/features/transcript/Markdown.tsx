import { memo, useDeferredValue, useMemo, useSyncExternalStore, type MouseEvent } from 'react';
import * as bridge from '../../bridge';
import { SAFE_URL, highlighterReady, onHighlighter, renderMarkdown } from '../../lib/markdown';

/**
 * Sanitized Markdown. A click on a link never navigates the app: http(s) and mailto
 * links open in the OS browser, anything else does nothing.
 */
export const Markdown = memo(function Markdown({ source }: { source: string }) {
  // While text streams in, parsing may lag a frame behind rather than block typing.
  const deferred = useDeferredValue(source);
  // Code blocks render again, highlighted, once the highlighter has loaded.
  const highlighted = useSyncExternalStore(onHighlighter, highlighterReady);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `highlighted` changes what renderMarkdown returns
  const html = useMemo(() => renderMarkdown(deferred), [deferred, highlighted]);
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as Element).closest?.('a');
    if (!a || !e.currentTarget.contains(a)) return;
    e.preventDefault();
    const href = a.getAttribute('href') ?? '';
    if (SAFE_URL.test(href)) bridge.openExternalURL(href);
  };
  return (
    <div
      className="markdown selectable"
      onClick={onClick}
      onAuxClick={(e) => {
        if ((e.target as Element).closest?.('a')) e.preventDefault();
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
});
