// Settings → Model: which provider/model the agent uses and its API key. The key is
// write-only: the backend never returns it, the field is never prefilled, and it is
// cleared after every successful save ("" keeps the saved key).
import { Check, Info } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { ModelApi, ModelSettings } from '../../bridge/types';
import { Button } from '../../ui/Button';
import { Toggle } from '../../ui/Toggle';

export const MODEL_PROVIDERS: ReadonlyArray<{ value: ModelApi; label: string }> = [
  { value: 'anthropic', label: 'Anthropic' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'openai-compatible', label: 'OpenAI-compatible (Ollama, LM Studio, OpenRouter, vLLM…)' },
];

const MODEL_PLACEHOLDER: Record<ModelApi, string> = {
  anthropic: 'e.g. claude-sonnet-4-5',
  openai: 'e.g. gpt-5',
  'openai-compatible': 'e.g. llama3.1:8b',
};

const BASE_URL_PLACEHOLDER: Record<ModelApi, string> = {
  anthropic: 'https://api.anthropic.com (default)',
  openai: 'https://api.openai.com/v1 (default)',
  'openai-compatible': 'e.g. http://localhost:11434/v1',
};

interface Draft {
  api: ModelApi;
  model: string;
  baseUrl: string;
  contextWindow: string;
  maxOutputTokens: string;
  thinking: boolean;
}

function toDraft(m: ModelSettings): Draft {
  return {
    api: m.api,
    model: m.model,
    baseUrl: m.baseUrl,
    contextWindow: String(m.contextWindow),
    maxOutputTokens: String(m.maxOutputTokens),
    thinking: m.thinking,
  };
}

function sameDraft(a: Draft, b: Draft): boolean {
  return (Object.keys(a) as Array<keyof Draft>).every((k) => a[k] === b[k]);
}

/** A whole number ≥ 0 ("" counts as 0 = default), or null. */
function parseCount(text: string): number | null {
  const t = text.trim();
  if (t === '') return 0;
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

type NumberField = 'contextWindow' | 'maxOutputTokens';

export function ModelSection() {
  const [saved, setSaved] = useState<ModelSettings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<NumberField, string>>>({});
  const [error, setError] = useState<BridgeError | null>(null);
  const [loadError, setLoadError] = useState<BridgeError | null>(null);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle');
  const ids = {
    api: useId(),
    model: useId(),
    baseUrl: useId(),
    baseUrlHelp: useId(),
    key: useId(),
    keyHelp: useId(),
    ctx: useId(),
    ctxErr: useId(),
    max: useId(),
    maxErr: useId(),
    numbersHelp: useId(),
    thinkingHelp: useId(),
    error: useId(),
  };

  useEffect(() => {
    let live = true;
    bridge.getModelSettings().then(
      (m) => {
        if (!live) return;
        setSaved(m);
        setDraft(toDraft(m));
      },
      (err: unknown) => {
        if (live) setLoadError(toBridgeError(err));
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const edit = (patch: Partial<Draft>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setError(null);
    setStatus('idle');
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft || !saved) return;
    const contextWindow = parseCount(draft.contextWindow);
    const maxOutputTokens = parseCount(draft.maxOutputTokens);
    const errs: Partial<Record<NumberField, string>> = {};
    if (contextWindow === null) errs.contextWindow = 'Enter a whole number of tokens (0 = default).';
    if (maxOutputTokens === null) errs.maxOutputTokens = 'Enter a whole number of tokens (0 = default).';
    setFieldErrors(errs);
    if (contextWindow === null || maxOutputTokens === null) return;
    const next: ModelSettings = {
      ...saved,
      api: draft.api,
      model: draft.model.trim(),
      baseUrl: draft.baseUrl.trim(),
      contextWindow,
      maxOutputTokens,
      thinking: draft.thinking,
    };
    setStatus('saving');
    setError(null);
    try {
      const stored = await bridge.setModelSettings(next, apiKey);
      setSaved(stored);
      setDraft(toDraft(stored));
      setApiKey('');
      setStatus('saved');
    } catch (err) {
      setStatus('idle');
      setError(toBridgeError(err));
    }
  };

  if (loadError) {
    return (
      <ModelGroup>
        <div className="inline-error" role="alert">
          <p>The model settings could not be loaded: {loadError.message}</p>
          <p className="error-code">{loadError.code}</p>
        </div>
      </ModelGroup>
    );
  }
  if (!draft || !saved) {
    return (
      <ModelGroup>
        <p className="muted">Loading the model settings…</p>
      </ModelGroup>
    );
  }

  const compatible = draft.api === 'openai-compatible';
  const dirty = !sameDraft(draft, toDraft(saved)) || apiKey !== '';

  return (
    <form className="settings-form" aria-label="Model settings" onSubmit={(e) => void onSubmit(e)} noValidate>
      <ModelGroup>
        {saved.fromEnvironment && (
          <p className="field-help model-env-note" role="note">
            <Info size={13} aria-hidden="true" /> No model is saved here, so the model from the environment
            (PI_DESKTOP_PROVIDER) is in use until you save one.
          </p>
        )}
        <div className="field">
          <label className="field-label" htmlFor={ids.api}>Provider</label>
          <select id={ids.api} className="select" value={draft.api} onChange={(e) => edit({ api: e.target.value as ModelApi })}>
            {MODEL_PROVIDERS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.model}>Model</label>
          <input
            id={ids.model}
            className="input"
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder={MODEL_PLACEHOLDER[draft.api]}
            value={draft.model}
            onChange={(e) => edit({ model: e.target.value })}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.baseUrl}>{compatible ? 'Base URL' : 'Base URL (optional)'}</label>
          <p id={ids.baseUrlHelp} className="field-help">
            {compatible
              ? 'The server’s OpenAI-compatible endpoint, e.g. Ollama, LM Studio, OpenRouter or vLLM.'
              : 'Leave empty to use the provider’s default endpoint.'}
          </p>
          <input
            id={ids.baseUrl}
            className="input"
            type="url"
            spellCheck={false}
            autoComplete="off"
            placeholder={BASE_URL_PLACEHOLDER[draft.api]}
            value={draft.baseUrl}
            aria-describedby={ids.baseUrlHelp}
            onChange={(e) => edit({ baseUrl: e.target.value })}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.key}>API key</label>
          <input
            id={ids.key}
            className="input"
            type="password"
            spellCheck={false}
            autoComplete="new-password"
            placeholder={saved.hasKey ? 'Saved — leave empty to keep' : 'Paste your API key'}
            value={apiKey}
            aria-describedby={ids.keyHelp}
            onChange={(e) => {
              setApiKey(e.target.value);
              setError(null);
              setStatus('idle');
            }}
          />
          <p id={ids.keyHelp} className="field-help">
            {saved.keyStorage ? (
              <>
                Stored in a private file readable only by you: <code className="selectable">{saved.keyStorage}</code>
              </>
            ) : (
              'Stored in a private file readable only by you.'
            )}{' '}
            The OS keychain is not used yet.
          </p>
        </div>
        <p id={ids.numbersHelp} className="field-help">For the two limits below, 0 means the model’s default.</p>
        <CountField
          id={ids.ctx}
          errId={ids.ctxErr}
          helpId={ids.numbersHelp}
          label="Context window (tokens)"
          value={draft.contextWindow}
          error={fieldErrors.contextWindow}
          onChange={(v) => {
            edit({ contextWindow: v });
            setFieldErrors((f) => ({ ...f, contextWindow: undefined }));
          }}
        />
        <CountField
          id={ids.max}
          errId={ids.maxErr}
          helpId={ids.numbersHelp}
          label="Max output tokens"
          value={draft.maxOutputTokens}
          error={fieldErrors.maxOutputTokens}
          onChange={(v) => {
            edit({ maxOutputTokens: v });
            setFieldErrors((f) => ({ ...f, maxOutputTokens: undefined }));
          }}
        />
        {draft.api === 'anthropic' && (
          <div className="field field-row">
            <div>
              <div className="field-label">Extended thinking</div>
              <p id={ids.thinkingHelp} className="field-help">Let Claude think before it answers (Anthropic only).</p>
            </div>
            <Toggle label="Extended thinking" checked={draft.thinking} onChange={(v) => edit({ thinking: v })} describedBy={ids.thinkingHelp} />
          </div>
        )}
        <div className="settings-actions">
          {error && (
            <p id={ids.error} className="field-error" role="alert">
              {error.message} <span className="error-code">{error.code}</span>
            </p>
          )}
          <span className="save-status" role="status">
            {status === 'saved' && !dirty && (
              <>
                <Check size={14} aria-hidden="true" /> Model saved
              </>
            )}
            {status === 'saving' && 'Saving…'}
          </span>
          <Button type="submit" variant="primary" disabled={!dirty || status === 'saving'}>
            Save model
          </Button>
        </div>
      </ModelGroup>
    </form>
  );
}

function ModelGroup({ children }: { children: ReactNode }) {
  return (
    <fieldset className="settings-group">
      <legend>Model</legend>
      {children}
    </fieldset>
  );
}

function CountField(props: { id: string; errId: string; helpId: string; label: string; value: string; error?: string; onChange: (v: string) => void }) {
  const { id, errId, helpId, label, value, error, onChange } = props;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input input-number"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={value}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={error ? `${helpId} ${errId}` : helpId}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p id={errId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
