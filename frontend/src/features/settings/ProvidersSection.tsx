// Settings → Models: the saved model providers (add, edit, remove, test, default).
// Keys are never shown: each provider says only whether a key is saved and where.
import { Info, Plus } from 'lucide-react';
import { SpendTable } from './SpendTable';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError } from '../../bridge/errors';
import type { ProviderProfile, ProviderTestResult } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { useToasts } from '../../state/ToastContext';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { MODEL_PROVIDERS, ProviderForm, imagesSummary, keyPlace } from './ProviderForm';
import { TestOutcome } from './TestOutcome';
import { ErrorBox } from '../../ui/ErrorBox';

function apiLabel(api: string): string {
  return MODEL_PROVIDERS.find((p) => p.value === api)?.label.replace(/ \(.*\)$/, '') ?? api;
}

/** "" = the add form; an id = that provider's edit form. */
type Editing = string | null;

export function ProvidersSection({ startAdding = false }: {
  /** Open with the add form shown and in view (the first run's "Add a model provider"). */
  startAdding?: boolean;
} = {}) {
  const { reportError } = useToasts();
  const confirm = useConfirm();
  const client = useQueryClient();
  // Re-read on providers:changed (features/app/cacheRules) and after every action here.
  const q = useQuery({ queryKey: queryKeys.providers, queryFn: bridge.listProviders });
  const list = q.data ?? null;
  const loadError = q.error ? toBridgeError(q.error) : null;
  const [editing, setEditing] = useState<Editing>(startAdding ? '' : null);
  // The first run lands on the add form: bring it into view with the keyboard in it.
  const addForm = useRef<HTMLDivElement>(null);
  const listed = list !== null;
  useEffect(() => {
    if (!startAdding || !listed) return;
    addForm.current?.scrollIntoView({ block: 'start' });
    addForm.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [startAdding, listed]);
  const [tests, setTests] = useState<Record<string, ProviderTestResult | 'testing'>>({});

  const reload = () => client.invalidateQueries({ queryKey: queryKeys.providers });

  const run = async (action: () => Promise<void>) => {
    try {
      await action();
    } catch (err) {
      reportError(err);
    }
    await reload();
  };

  const remove = async (p: ProviderProfile) => {
    const ok = await confirm({
      title: `Remove ${p.name}?`,
      message: (
        <p>
          Its saved API key is deleted too. Sessions that chose it use the default provider from now on.
        </p>
      ),
      confirmLabel: 'Remove',
      danger: true,
    });
    if (ok) await run(() => bridge.removeProvider(p.id));
    if (ok && editing === p.id) setEditing(null);
  };

  const test = async (p: ProviderProfile) => {
    setTests((t) => ({ ...t, [p.id]: 'testing' }));
    try {
      const r = await bridge.testProvider(p, '');
      setTests((t) => ({ ...t, [p.id]: r }));
    } catch (err) {
      const e = toBridgeError(err);
      setTests((t) => ({ ...t, [p.id]: { ok: false, code: e.code, message: e.message, durationMs: 0, models: [], modelsCode: '', modelsMessage: '' } }));
    }
  };

  if (loadError) {
    return (
      <ModelsGroup>
        <ErrorBox what="The model providers could not be loaded." error={loadError} onRetry={() => void q.refetch()} />
      </ModelsGroup>
    );
  }
  if (!list) {
    return (
      <ModelsGroup>
        <p className="muted">Loading the model providers…</p>
      </ModelsGroup>
    );
  }

  const form = (p: ProviderProfile | null) => (
    <ProviderForm
      key={p?.id ?? 'new'}
      provider={p}
      keyStorage={list.keyStorage}
      first={list.providers.length === 0}
      onSaved={() => {
        setEditing(null);
        void reload();
      }}
      onCancel={() => setEditing(null)}
    />
  );

  return (
    <ModelsGroup>
      {list.environment && (
        <p className="field-help model-env-note" role="note">
          <Info size={13} aria-hidden="true" /> No provider is saved here, so the model from the environment
          (PI_DESKTOP_PROVIDER: {list.environment.api} · {list.environment.model || 'no model set'}) is in use until you add one.
        </p>
      )}
      {list.providers.length === 0 && !list.environment && editing === null && (
        <p className="muted">No model provider yet. Add one to start a conversation.</p>
      )}
      {list.providers.length > 0 && (
        <ul className="provider-list" aria-label="Saved providers">
          {list.providers.map((p) => {
            const t = tests[p.id];
            return (
              <li key={p.id} className="provider-item" aria-label={p.name}>
                <div className="provider-summary">
                  <strong>{p.name}</strong>
                  {p.isDefault && <span className="badge">Default</span>}
                  <div className="provider-meta">
                    {apiLabel(p.api)} · <code>{p.model}</code>
                    {p.baseUrl && <> · {p.baseUrl}</>}
                  </div>
                  <div className="provider-images field-help">{imagesSummary(p)}</div>
                  <div className="provider-key field-help">
                    {p.hasKey ? (
                      <>
                        Key saved in <span className="selectable">{keyPlace(p.keyStorage)}</span>
                      </>
                    ) : (
                      'No API key saved'
                    )}
                  </div>
                  <TestOutcome result={t && t !== 'testing' ? t : null} testing={t === 'testing'} />
                </div>
                <div className="provider-actions">
                  <Button size="sm" aria-label={`Test ${p.name}`} disabled={t === 'testing'} onClick={() => void test(p)}>
                    Test
                  </Button>
                  <Button size="sm" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p.id)}>
                    Edit
                  </Button>
                  {!p.isDefault && (
                    <Button size="sm" aria-label={`Make ${p.name} the default`} onClick={() => void run(() => bridge.setDefaultProvider(p.id))}>
                      Make default
                    </Button>
                  )}
                  <Button size="sm" variant="ghost" aria-label={`Remove ${p.name}`} onClick={() => void remove(p)}>
                    Remove
                  </Button>
                </div>
                {editing === p.id && form(p)}
              </li>
            );
          })}
        </ul>
      )}
      {editing === '' ? (
        <div ref={addForm}>{form(null)}</div>
      ) : (
        <div className="settings-actions">
          <Button icon={<Plus size={14} aria-hidden="true" />} onClick={() => setEditing('')}>
            Add provider
          </Button>
        </div>
      )}
      <SpendTable />
    </ModelsGroup>
  );
}

function ModelsGroup({ children }: { children: ReactNode }) {
  return (
    <fieldset className="settings-group">
      <legend>Models</legend>
      {children}
    </fieldset>
  );
}
