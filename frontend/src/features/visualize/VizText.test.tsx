import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VizProvider } from './VizContext';
import { VizText } from './VizText';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const SID = 's1';
const TEXT = `Look:\n\n::visualize{"path":"/data/visualizations/${SID}/sales.html","title":"Sales"}\n\nDone.`;

function show(opts: { enabled?: boolean; active?: string | null; streaming?: boolean; text?: string }) {
  return render(
    <VizProvider sessionId={SID} enabled={opts.enabled ?? true} activeTurnId={opts.active ?? null}>
      <VizText text={opts.text ?? TEXT} turnId="t1" streaming={opts.streaming ?? false} />
    </VizProvider>,
  );
}

describe('VizText', () => {
  it('renders the card of a completed message of an ended turn', () => {
    const { container } = show({});
    expect(screen.getByText('Look:')).toBeInTheDocument();
    expect(screen.getByText('Done.')).toBeInTheDocument();
    const frame = screen.getByTitle('Sales');
    expect(frame.getAttribute('src')).toBe(`/_viz/${SID}/sales?theme=light`);
    expect(container).not.toHaveTextContent('::visualize');
    expect(container.innerHTML).not.toContain('/data/visualizations');
  });

  it('waits for the message and its turn to complete', () => {
    const { rerender, container } = show({ streaming: true });
    expect(container.querySelector('iframe')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Sales appears when the turn ends');
    rerender(
      <VizProvider sessionId={SID} enabled activeTurnId="t1">
        <VizText text={TEXT} turnId="t1" streaming={false} />
      </VizProvider>,
    );
    expect(container.querySelector('iframe')).toBeNull();
    rerender(
      <VizProvider sessionId={SID} enabled activeTurnId="t2">
        <VizText text={TEXT} turnId="t1" streaming={false} />
      </VizProvider>,
    );
    expect(container.querySelector('iframe')).not.toBeNull();
  });

  it('strips reference lines without a card while the setting is off', () => {
    const { container } = show({ enabled: false });
    expect(container.querySelector('iframe')).toBeNull();
    expect(container).not.toHaveTextContent('::visualize');
    expect(screen.getByText('Done.')).toBeInTheDocument();
  });

  it('leaves a reference inside a code block as code', () => {
    const text = '```\n::visualize{"path":"/data/visualizations/s1/sales.html"}\n```';
    const { container } = show({ text });
    expect(container.querySelector('iframe')).toBeNull();
    expect(container.querySelector('pre code')).toHaveTextContent('::visualize');
  });
});
