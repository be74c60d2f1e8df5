// Which checkpoint "Restore files to before this message" restores. Every change the
// agent makes after a prompt is preceded by a checkpoint of its turn (or of a later
// turn, or of a delegate those turns started), so the oldest of those holds the files
// as they were before the prompt. Pure, so it is tested without a DOM.
import type { Checkpoint } from '../../bridge/checkpoints';

export type RestoreTarget =
  /** The checkpoint to restore. */
  | { kind: 'ready'; checkpoint: Checkpoint }
  /** The checkpoint before the first change was not captured: the files of then are not known. */
  | { kind: 'not-captured'; checkpoint: Checkpoint };

export interface TurnLink {
  turnId: string;
  parentTurnId: string;
}

/**
 * The target for the prompt of turnId, or null when nothing was changed since it.
 * turnOrder: the transcript's turns, oldest first; delegates: each delegate run's own
 * turn and the turn that started it; checkpoints: newest first, as the backend lists them.
 */
export function restoreTargetFor(turnId: string, turnOrder: string[], delegates: TurnLink[], checkpoints: Checkpoint[]): RestoreTarget | null {
  const at = turnOrder.indexOf(turnId);
  if (turnId === '' || at < 0) return null;
  const since = new Set(turnOrder.slice(at));
  for (const d of delegates) if (since.has(d.parentTurnId)) since.add(d.turnId);
  for (let i = checkpoints.length - 1; i >= 0; i--) {
    const cp = checkpoints[i]!;
    if (!since.has(cp.turnId)) continue;
    return cp.captured ? { kind: 'ready', checkpoint: cp } : { kind: 'not-captured', checkpoint: cp };
  }
  return null;
}
