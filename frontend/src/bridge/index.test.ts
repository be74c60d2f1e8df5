// The bridge's own test mocks the generated Wails modules (everything else mocks the bridge).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as App from '../../wailsjs/go/main/App';
import * as runtime from '../../wailsjs/runtime/runtime';
import * as bridge from '.';
import { BridgeError } from './errors';

vi.mock('../../wailsjs/go/main/App', () => ({
  Info: vi.fn(),
  ListProjects: vi.fn(),
  ListSessions: vi.fn(),
  UpdateSettings: vi.fn(),
  ChooseFolder: vi.fn(),
}));
vi.mock('../../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }));

beforeEach(() => {
  vi.mocked(App.Info).mockReset();
  vi.mocked(App.ListSessions).mockReset();
  vi.mocked(runtime.EventsOn).mockReset();
});

describe('bridge calls', () => {
  it('rejects with a BridgeError carrying the Go payload', async () => {
    vi.mocked(App.Info).mockRejectedValue({ code: 'SCHEMA_TOO_NEW', message: 'the database was written by a newer version', details: { schema: 9 } });
    const err = await bridge.info().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect(err).toMatchObject({ code: 'SCHEMA_TOO_NEW', details: { schema: 9 } });
  });

  it('rejects a plain string as INTERNAL', async () => {
    vi.mocked(App.ListSessions).mockRejectedValue('boom');
    await expect(bridge.listSessions('', false)).rejects.toMatchObject({ code: 'INTERNAL', message: 'boom' });
  });

  it('returns plain objects and tolerates a null list', async () => {
    vi.mocked(App.ListSessions).mockResolvedValue(null as never);
    await expect(bridge.listSessions('p1', true)).resolves.toEqual([]);
    expect(App.ListSessions).toHaveBeenCalledWith('p1', true);
  });

  it('subscribes to the sessions:changed event and normalizes its payload', () => {
    const off = vi.fn();
    let handler: ((...data: unknown[]) => void) | undefined;
    vi.mocked(runtime.EventsOn).mockImplementation((_name, cb) => {
      handler = cb;
      return off;
    });
    const cb = vi.fn();
    const unsubscribe = bridge.onSessionsChanged(cb);
    expect(runtime.EventsOn).toHaveBeenCalledWith('sessions:changed', expect.any(Function));
    handler?.({ sessionId: 's1' });
    expect(cb).toHaveBeenCalledWith({ sessionId: 's1', projectId: '' });
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });
});
