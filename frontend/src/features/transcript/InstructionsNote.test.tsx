import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InstructionFile } from '../../bridge/types';
import { formatSize, InstructionsNote } from './InstructionsNote';

const file = (over: Partial<InstructionFile>): InstructionFile => ({
  path: 'pkg/AGENTS.md',
  size: 2150,
  loaded: 2150,
  truncated: false,
  skipped: '',
  ...over,
});

describe('InstructionsNote', () => {
  it('names the loaded files with their sizes on one quiet line', () => {
    render(<InstructionsNote files={[file({}), file({ path: 'pkg/sub/CLAUDE.md', size: 812, loaded: 812 })]} />);
    expect(screen.getByText('Loaded instructions: pkg/AGENTS.md (2.1 KB), pkg/sub/CLAUDE.md (812 B)')).toBeInTheDocument();
  });

  it('says how much of a cut file the model got', () => {
    render(<InstructionsNote files={[file({ size: 40_000, loaded: 16_384, truncated: true })]} />);
    expect(screen.getByText('Loaded instructions: pkg/AGENTS.md (39.1 KB, first 16.0 KB)')).toBeInTheDocument();
  });

  it('lists a file that was not loaded with the reason', () => {
    render(
      <InstructionsNote
        files={[file({ path: 'l/AGENTS.md', size: 0, loaded: 0, skipped: 'it is a link that leads out of the workspace or nowhere' })]}
      />,
    );
    expect(screen.getByText('Not loaded: l/AGENTS.md — it is a link that leads out of the workspace or nowhere')).toBeInTheDocument();
    expect(screen.queryByText(/Loaded instructions/)).not.toBeInTheDocument();
  });

  it('renders nothing without files', () => {
    const { container } = render(<InstructionsNote files={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('formats sizes as the model marker does', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1024)).toBe('1.0 KB');
  });
});
