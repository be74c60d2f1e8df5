import type { InstructionFile } from '../../bridge/types';

/** A byte count as people read it: 812 B, 2.1 KB (as the model's own marker says it). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function loadedLabel(f: InstructionFile): string {
  const cut = f.truncated ? `, first ${formatSize(f.loaded)}` : '';
  return `${f.path} (${formatSize(f.size)}${cut})`;
}

/**
 * The quiet line under a tool row naming the path-scoped instruction files (AGENTS.md,
 * else CLAUDE.md) its path loaded into the model's context, and those that could not be.
 */
export function InstructionsNote({ files }: { files: InstructionFile[] }) {
  const loaded = files.filter((f) => !f.skipped);
  const skipped = files.filter((f) => f.skipped);
  if (files.length === 0) return null;
  return (
    <div className="tool-instructions">
      {loaded.length > 0 && <p>Loaded instructions: {loaded.map(loadedLabel).join(', ')}</p>}
      {skipped.map((f) => (
        <p key={f.path} className="tool-instructions-skipped">
          Not loaded: {f.path} — {f.skipped}
        </p>
      ))}
    </div>
  );
}
