// The Activity bridge call against a mocked generated module, and the normalizers.
import { describe, expect, it, vi } from 'vitest';
import * as App from '../../wailsjs/go/desktop/Review';
import * as bridge from '.';
import { activityPage, reviewSince } from './activity';

vi.mock('../../wailsjs/go/desktop/Review', () => ({ ActivityLog: vi.fn() }));
vi.mock('../../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }));

describe('activityLog', () => {
  it('passes the filter with cursor and limit and normalizes the page', async () => {
    vi.mocked(App.ActivityLog).mockResolvedValue({
      rows: [{ id: 7, tool: 'Bash', decision: 'granted', prompted: true, permissionWaitMs: 900, durationMs: 40, ok: false, errorCode: 'TOOL_FAILED', createdAt: 5 }],
      nextCursor: 7,
      summary: { matching: 3, tools: ['Bash', 4], decisions: null, errorCodes: ['TOOL_FAILED'] },
    } as never);
    const page = await bridge.activityLog('s1', { tool: 'Bash', decision: '', result: 'failed' }, 12, 20);
    expect(App.ActivityLog).toHaveBeenCalledWith('s1', { tool: 'Bash', decision: '', result: 'failed', cursor: 12, limit: 20 });
    expect(page.nextCursor).toBe(7);
    expect(page.summary).toEqual({ matching: 3, tools: ['Bash'], decisions: [], errorCodes: ['TOOL_FAILED'] });
    expect(page.rows[0]).toMatchObject({ id: 7, tool: 'Bash', prompted: true, permissionWaitMs: 900, ok: false, errorCode: 'TOOL_FAILED', argsPreview: '', delegate: '' });
  });

  it('rejects with the Go error payload', async () => {
    vi.mocked(App.ActivityLog).mockRejectedValue({ code: 'INVALID_ARGUMENT', message: 'result filter "x" is not ok, failed or an error code', details: { field: 'result' } });
    await expect(bridge.activityLog('s1', { tool: '', decision: '', result: 'x' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', field: 'result' });
  });
});

describe('normalizers', () => {
  it('reads a page without a summary (later pages) and tolerates junk', () => {
    expect(activityPage({ rows: null, nextCursor: 'x' })).toEqual({ rows: [], nextCursor: 0, summary: null });
  });

  it('reads details.since of a refused rollback, or null', () => {
    expect(reviewSince({ reason: 'hardLinked' })).toBeNull();
    expect(
      reviewSince({ since: { status: 'deleted', additions: 0, deletions: 2, hunks: [{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0, lines: ['-a', '-b'] }] } }),
    ).toEqual({ status: 'deleted', additions: 0, deletions: 2, binary: false, truncated: false, hunks: [{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0, lines: ['-a', '-b'] }] });
  });
});
