import { describe, expect, it } from 'vitest';
import { checkpointRow } from '../../test/fakeBridge';
import { restoreTargetFor } from './restoreTarget';

// Newest first, as the backend lists them.
const list = [
  checkpointRow('cp5', { turnId: 't3', kind: 'end-of-turn' }),
  checkpointRow('cp4', { turnId: 't3', kind: 'before-first-mutation' }),
  checkpointRow('cp3', { turnId: '', kind: 'before-restore' }),
  checkpointRow('cp2', { turnId: 't1', kind: 'after-bash' }),
  checkpointRow('cp1', { turnId: 't1', kind: 'before-first-mutation' }),
];

describe('restoreTargetFor', () => {
  const turns = ['t1', 't2', 't3'];
  it.each([
    ['the first checkpoint of the prompt’s own turn', 't1', 'cp1'],
    ['a turn that changed nothing: the next turn’s first checkpoint', 't2', 'cp4'],
    ['the last turn', 't3', 'cp4'],
  ])('%s', (_name, turn, want) => {
    expect(restoreTargetFor(turn, turns, [], list)).toEqual({ kind: 'ready', checkpoint: expect.objectContaining({ id: want }) });
  });

  it('is null when nothing was changed since the prompt, or the turn is unknown', () => {
    expect(restoreTargetFor('t4', [...turns, 't4'], [], list)).toBeNull();
    expect(restoreTargetFor('nope', turns, [], list)).toBeNull();
    expect(restoreTargetFor('', turns, [], list)).toBeNull();
  });

  it('counts a delegate’s checkpoints as its parent turn’s', () => {
    const withDelegate = [list[0]!, list[1]!, checkpointRow('cpd', { turnId: 'dt2', kind: 'before-first-mutation' }), list[2]!];
    expect(restoreTargetFor('t2', turns, [{ turnId: 'dt2', parentTurnId: 't2' }], withDelegate)).toEqual({
      kind: 'ready',
      checkpoint: expect.objectContaining({ id: 'cpd' }),
    });
    expect(restoreTargetFor('t2', turns, [], withDelegate)?.checkpoint.id).toBe('cp4');
  });

  it('never falls back to a later checkpoint when the first one was not captured', () => {
    const notCaptured = [list[0]!, checkpointRow('cp4', { turnId: 't3', kind: 'before-first-mutation', captured: false, reason: 'not captured: slow' })];
    expect(restoreTargetFor('t3', turns, [], notCaptured)).toEqual({ kind: 'not-captured', checkpoint: expect.objectContaining({ id: 'cp4' }) });
  });
});
