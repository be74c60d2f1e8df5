import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditRow } from '../../bridge/activity';
import { BridgeError } from '../../bridge/errors';
import { NOW, auditRow, bridgeModule as bridge, project, resetFakeBridge, session, type FakeBackend } from '../../test/fakeBridge';
import { renderApp } from '../../test/render';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

let backend: FakeBackend;

/** 120 rows: Read, Write and Bash in turn; every 10th a denied, prompted Write. */
function rows(): AuditRow[] {
  const tools = ['Read', 'Write', 'Bash'];
  return Array.from({ length: 120 }, (_, i) => {
    const id = i + 1;
    if (id % 10 === 0) {
      return auditRow(id, { tool: 'Write', decision: 'denied', prompted: true, permissionWaitMs: 1500, durationMs: 0, ok: false, errorCode: 'TOOL_DENIED' });
    }
    return auditRow(id, { tool: tools[i % 3]!, durationMs: 850 });
  });
}

beforeEach(() => {
  backend = resetFakeBridge({
    projects: [project('p1', 'alpha-app')],
    sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000), session('s2', 'p1', 'Other', NOW - 120_000)],
    audit: [...rows(), auditRow(500, { sessionId: 's2', tool: 'Glob' })],
  });
});

async function openActivity() {
  const r = await renderApp();
  await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
  await r.user.click(await screen.findByRole('button', { name: 'Activity' }));
  const panel = within(screen.getByRole('complementary', { name: 'Activity' }));
  await panel.findByRole('table');
  return { ...r, panel };
}

/** The table's body rows as cell texts (querySelector: role queries are slow on 100+ rows). */
function bodyRows(panel: ReturnType<typeof within>) {
  const table: HTMLElement = panel.getByRole('table');
  return Array.from(table.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent));
}

describe('Activity view', () => {
  it('lists the session’s audit rows newest first with decision, prompted, wait, duration and result', async () => {
    const { panel } = await openActivity();
    expect(panel.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Tool', 'Decision', 'Asked', 'Wait', 'Ran', 'Result']);
    const body = bodyRows(panel);
    expect(body).toHaveLength(50);
    // id 120 is a denied Write that waited 1.5 s on its card; id 119 a Write of 850 ms.
    expect(body[0]).toEqual([expect.any(String), 'Writepath="src/file120.ts"', 'denied', 'Yes', '1.5 s', '0 ms', 'TOOL_DENIED']);
    expect(body[1]).toEqual(['11:59:00', 'Writepath="src/file119.ts"', 'allow', 'No', '—', '850 ms', 'OK']);
    expect(panel.getByText('Showing 50 of 120 calls, newest first')).toBeInTheDocument();
    expect(bridge.activityLog).toHaveBeenCalledWith('s1', { tool: '', decision: '', result: '' }, 0, 50);
    expect(panel.queryByText(/Glob/)).not.toBeInTheDocument(); // another session's row
  });

  it('loads more pages with the cursor until the last one', async () => {
    const { user, panel } = await openActivity();
    await user.click(panel.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(bodyRows(panel)).toHaveLength(100));
    expect(bridge.activityLog).toHaveBeenLastCalledWith('s1', { tool: '', decision: '', result: '' }, 71, 50);
    await user.click(panel.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(bodyRows(panel)).toHaveLength(120));
    expect(panel.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(panel.getByText('Showing 120 of 120 calls, newest first')).toBeInTheDocument();
    // Newest first, no gap and no repeat across pages.
    const ids = bodyRows(panel).map((r) => Number(/file(\d+)/.exec(r[1] ?? '')?.[1]));
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => 120 - i));
  });

  it('filters by tool, decision and result, and clears the filters', async () => {
    const { user, panel } = await openActivity();
    const tool = panel.getByRole('combobox', { name: 'Tool' });
    expect(within(tool).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'Bash', 'Read', 'Write']);
    await user.selectOptions(tool, 'Bash');
    await waitFor(() => expect(panel.getByText('Showing 36 of 36 matching calls, newest first')).toBeInTheDocument());
    expect(bodyRows(panel).every((r) => r[1]!.startsWith('Bash'))).toBe(true);
    expect(bridge.activityLog).toHaveBeenLastCalledWith('s1', { tool: 'Bash', decision: '', result: '' }, 0, 50);

    await user.selectOptions(tool, '');
    await user.selectOptions(panel.getByRole('combobox', { name: 'Result' }), 'TOOL_DENIED');
    await waitFor(() => expect(panel.getByText('Showing 12 of 12 matching calls, newest first')).toBeInTheDocument());
    expect(bodyRows(panel).every((r) => r[6] === 'TOOL_DENIED')).toBe(true);

    await user.selectOptions(panel.getByRole('combobox', { name: 'Result' }), 'ok');
    await user.selectOptions(panel.getByRole('combobox', { name: 'Decision' }), 'denied');
    await waitFor(() => expect(panel.getByText('No tool calls match these filters.')).toBeInTheDocument());

    await user.click(panel.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(panel.getByText('Showing 50 of 120 calls, newest first')).toBeInTheDocument());
    expect(panel.getByRole('combobox', { name: 'Decision' })).toHaveValue('');
  });

  it('a filtered listing pages within the filter', async () => {
    const { user, panel } = await openActivity();
    await user.selectOptions(panel.getByRole('combobox', { name: 'Result' }), 'ok');
    await waitFor(() => expect(panel.getByText('Showing 50 of 108 matching calls, newest first')).toBeInTheDocument());
    await user.click(panel.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(bodyRows(panel)).toHaveLength(100));
    expect(bridge.activityLog).toHaveBeenLastCalledWith('s1', { tool: '', decision: '', result: 'ok' }, expect.any(Number), 50);
    expect(bodyRows(panel).every((r) => r[6] === 'OK')).toBe(true);
  });

  it('puts a finished call on top without dropping the pages already loaded', async () => {
    const { user, panel } = await openActivity();
    await user.click(panel.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(bodyRows(panel)).toHaveLength(100));
    backend.audit.push(auditRow(121, { tool: 'Grep', argsPreview: 'pattern="TODO"', durationMs: 12 }));
    act(() => backend.emit('agent:tool_result', { sessionId: 's1', turnId: 't1', messageId: 'm', toolCallId: 'c121', tool: 'Grep', state: 'done', result: { ok: true } }));
    await waitFor(() => expect(bodyRows(panel)).toHaveLength(101));
    expect(bodyRows(panel)[0]).toEqual([expect.any(String), 'Greppattern="TODO"', 'allow', 'No', '—', '12 ms', 'OK']);
    expect(panel.getByText('Showing 101 of 121 calls, newest first')).toBeInTheDocument();
  });

  it('shows a failed load with its code and retries', async () => {
    bridge.activityLog.mockRejectedValueOnce(new BridgeError('STORAGE_UNAVAILABLE', 'cannot read the audit log from the database; check free disk space and retry'));
    const r = await renderApp();
    await r.user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await r.user.click(await screen.findByRole('button', { name: 'Activity' }));
    const panel = within(screen.getByRole('complementary', { name: 'Activity' }));
    const alert = await panel.findByRole('alert');
    expect(alert).toHaveTextContent('STORAGE_UNAVAILABLE');
    await r.user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await panel.findByRole('table')).toBeInTheDocument();
    expect(panel.queryByRole('alert')).not.toBeInTheDocument();
  });
});
