// The checkpoint wrappers: the arguments reach the Review service as given, Go's nil
// slices read as [], and a rejection carries its stable code.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as bridge from '.';
import { BridgeError } from './errors';

const Review = vi.hoisted(() => ({
  Checkpoints: vi.fn(),
  PreviewRestore: vi.fn(),
  RestoreCheckpoint: vi.fn(),
  CommandChanges: vi.fn(),
  CheckpointUsage: vi.fn(),
  ClearCheckpoints: vi.fn(),
}));
vi.mock('../../wailsjs/go/desktop/Review', () => Review);
vi.mock('../../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }));

beforeEach(() => {
  for (const fn of Object.values(Review)) fn.mockReset();
});

describe('checkpoint bridge', () => {
  it('lists checkpoints, reading nil as none and filling missing fields', async () => {
    Review.Checkpoints.mockResolvedValueOnce(null);
    expect(await bridge.checkpoints('s1')).toEqual([]);
    Review.Checkpoints.mockResolvedValueOnce([{ id: 'cp1', kind: 'after-bash', captured: true, createdAt: 5 }]);
    const [cp] = await bridge.checkpoints('s1');
    expect(cp).toMatchObject({ id: 'cp1', kind: 'after-bash', captured: true, createdAt: 5, reason: '', turnId: '', filesChanged: 0 });
    expect(Review.Checkpoints).toHaveBeenLastCalledWith('s1');
  });

  it('previews and restores with the overwrite choice as given', async () => {
    Review.PreviewRestore.mockResolvedValueOnce({ checkpoint: { id: 'cp1' }, files: [{ path: 'a.txt', action: 'modify', conflict: true }], conflicts: 1 });
    const plan = await bridge.previewRestore('s1', 'cp1');
    expect(Review.PreviewRestore).toHaveBeenCalledWith('s1', 'cp1');
    expect(plan.files[0]).toMatchObject({ path: 'a.txt', action: 'modify', conflict: true, diff: '', skipped: '' });
    expect(plan.conflicts).toBe(1);

    Review.RestoreCheckpoint.mockResolvedValueOnce({ checkpoint: { id: 'cp1' }, before: { id: 'cp9', kind: 'before-restore' }, restored: null, skipped: null });
    const res = await bridge.restoreCheckpoint('s1', 'cp1', ['a.txt']);
    expect(Review.RestoreCheckpoint).toHaveBeenCalledWith('s1', 'cp1', { paths: ['a.txt'] });
    expect(res.before.id).toBe('cp9');
    expect(res.restored).toEqual([]);
    expect(res.skipped).toEqual([]);
  });

  it('rejects with the backend code', async () => {
    Review.RestoreCheckpoint.mockRejectedValueOnce(JSON.stringify({ code: 'CHECKPOINT_NOT_CAPTURED', message: 'holds no snapshot', details: {} }));
    const err = await bridge.restoreCheckpoint('s1', 'cp1', []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect((err as BridgeError).code).toBe('CHECKPOINT_NOT_CAPTURED');
  });

  it('reads command changes, usage and a clear', async () => {
    Review.CommandChanges.mockResolvedValueOnce([{ checkpointId: 'cp2', toolCallId: 'c1', captured: true, files: [{ path: 'x', status: 'added', additions: 1 }] }]);
    const [c] = await bridge.commandChanges('s1');
    expect(c!.files[0]).toMatchObject({ path: 'x', status: 'added', additions: 1, diff: '' });
    Review.CheckpointUsage.mockResolvedValueOnce(null);
    expect(await bridge.checkpointUsage()).toEqual([]);
    Review.ClearCheckpoints.mockResolvedValueOnce({ projectId: 'p1', bytes: 2048, checkpoints: 3, shadows: 1 });
    expect(await bridge.clearCheckpoints('p1')).toEqual({ projectId: 'p1', bytes: 2048, checkpoints: 3, shadows: 1 });
    expect(Review.ClearCheckpoints).toHaveBeenCalledWith('p1');
  });
});
