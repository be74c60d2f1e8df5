import { BarChart3 } from 'lucide-react';
import { memo, useMemo } from 'react';
import { Markdown } from '../transcript/Markdown';
import { mayHaveVisualizations, splitVisualizations } from './directive';
import { VizCard } from './VizCard';
import { useViz } from './VizContext';

interface Props {
  text: string;
  turnId: string;
  streaming: boolean;
}

/**
 * Assistant Markdown with its ::visualize lines: a card once the message and its
 * turn are complete, a placeholder before, nothing while the setting is off.
 */
export const VizText = memo(function VizText({ text, turnId, streaming }: Props) {
  const viz = useViz();
  const segments = useMemo(
    () => (mayHaveVisualizations(text) && viz.sessionId ? splitVisualizations(text, viz.sessionId) : null),
    [text, viz.sessionId],
  );
  if (!segments || !segments.some((s) => s.kind === 'viz')) return <Markdown source={text} />;
  const done = !streaming && viz.activeTurnId !== turnId;
  return (
    <>
      {segments.map((s, i) => {
        if (s.kind === 'markdown') return <Markdown key={i} source={s.text} />;
        if (!viz.enabled) return null;
        if (!done) {
          return (
            <p key={i} className="viz-pending" role="status">
              <BarChart3 size={13} aria-hidden="true" /> {s.viz.title || s.viz.file} appears when the turn ends
            </p>
          );
        }
        return <VizCard key={`${i}:${s.viz.file}`} sessionId={viz.sessionId} file={s.viz.file} title={s.viz.title} />;
      })}
    </>
  );
});
