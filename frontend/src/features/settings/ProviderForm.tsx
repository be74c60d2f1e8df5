// The add/edit form of a saved model provider. The API key is write-only: the backend
// never returns it, the field is never prefilled, and "" keeps the saved key.
import { useId, useState, type FormEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { KEYCHAIN, type ListedModel, type ModelApi, type ProviderInput, type ProviderProfile, type ProviderTestResult } from '../../bridge/types';
import { Button } from '../../ui/Button';
import { Toggle } from '../../ui/Toggle';
import { TestOutcome } from './TestOutcome';
import { PriceFields, parsePrices, priceDraft, type PriceDraft } from './PriceFields';

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

/**
 * The OpenAI wire API a provider uses, as the backend decides it (provider.OpenAIWireAPI):
 * the Responses API on OpenAI's own endpoint, Chat Completions on compatible servers and
 * any other base URL (gateways do not all speak the Responses API); null for Anthropic.
 */
export function openaiWireApi(api: ModelApi, baseUrl: string, choice = ''): 'responses' | 'chat' | null {
  if (api === 'anthropic') return null;
  if (choice === 'responses' || choice === 'chat') return choice;
  if (api === 'openai-compatible') return 'chat';
  const url = baseUrl.trim();
  if (url === '') return 'responses';
  try {
    return new URL(url).hostname.toLowerCase() === 'api.openai.com' ? 'responses' : 'chat';
  } catch {
    return 'chat';
  }
}

const WIRE_API_HELP: Record<'responses' | 'chat', string> = {
  responses: 'Uses OpenAI’s Responses API: a reasoning model keeps its reasoning between tool calls (sent back encrypted; nothing is stored at OpenAI).',
  chat: 'Uses Chat Completions, which OpenAI-compatible servers and gateways speak.',
};

/** Where a key is (or would be) kept, in words. */
export function keyPlace(where: string): string {
  return where === KEYCHAIN ? 'the OS keychain' : where;
}

type Field = 'name' | 'api' | 'model' | 'baseUrl' | 'contextWindow' | 'maxOutputTokens' | 'temperature' | 'openaiApi';

/** Tokens in short form: 200000 → "200k", 1047576 → "1,047,576". */
export function tokens(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}k` : n.toLocaleString('en-US');
}

/**
 * The limits a saved provider runs with, in words, for the form's help; null for a new
 * provider or a changed API or model (known only once saved).
 */
export function limitsSummary(p: ProviderProfile | null, api: ModelApi, model: string): string | null {
  if (!p || p.api !== api || p.model !== model.trim()) return null;
  const source = p.limitsKnown ? 'known for this model' : 'the default for this API';
  const window = `Context window: ${tokens(p.effectiveContextWindow)} (${p.contextWindow > 0 ? 'set here' : source})`;
  const out = p.effectiveMaxOutput > 0 ? `max output: ${tokens(p.effectiveMaxOutput)} (${p.maxOutputTokens > 0 ? 'set here' : source})` : 'max output: the server’s default';
  return `${window}; ${out}.`;
}

/** The "Supports images" choice: the model's default, or forced on or off. */
type ImagesChoice = 'default' | 'on' | 'off';

/** The prompt cache key choice (OpenAI APIs): the API's default, or forced on or off. */
type CacheKeyChoice = 'default' | 'on' | 'off';

interface Draft {
  name: string;
  api: ModelApi;
  model: string;
  baseUrl: string;
  contextWindow: string;
  maxOutputTokens: string;
  temperature: string;
  thinking: boolean;
  images: ImagesChoice;
  cacheKey: CacheKeyChoice;
  openaiApi: string;
  isDefault: boolean;
  prices: PriceDraft;
}

function toDraft(p: ProviderProfile | null): Draft {
  return {
    name: p?.name ?? '',
    api: p?.api ?? 'anthropic',
    model: p?.model ?? '',
    baseUrl: p?.baseUrl ?? '',
    contextWindow: p && p.contextWindow > 0 ? String(p.contextWindow) : '',
    maxOutputTokens: p && p.maxOutputTokens > 0 ? String(p.maxOutputTokens) : '',
    temperature: p?.temperature !== undefined ? String(p.temperature) : '',
    thinking: p?.thinking ?? false,
    images: p?.supportsImages === undefined ? 'default' : p.supportsImages ? 'on' : 'off',
    cacheKey: p?.promptCacheKey === undefined ? 'default' : p.promptCacheKey ? 'on' : 'off',
    openaiApi: p?.openaiApi ?? '',
    isDefault: p?.isDefault ?? false,
    prices: priceDraft(p),
  };
}

/**
 * The "Default" option in words: what the backend knows of the saved model, or, for a
 * new provider or a changed API or model (known only once saved), that the model decides.
 */
function imagesDefaultLabel(p: ProviderProfile | null, api: ModelApi, model: string): string {
  if (!p || p.api !== api || p.model !== model.trim()) return 'Default (decided from the model when saved)';
  return p.imagesByDefault ? 'Default (on — known for this model)' : 'Default (off — not known for this model)';
}

/** A saved provider's image support in words, for the list. */
export function imagesSummary(p: ProviderProfile): string {
  if (p.supportsImages !== undefined) return `Images ${p.supportsImages ? 'on' : 'off'} — set here`;
  return p.imagesByDefault ? 'Images on — known for this model' : 'Images off — not known for this model';
}

/** A whole number ≥ 0 ("" = 0, the default), or null. */
function parseCount(text: string): number | null {
  const t = text.trim();
  if (t === '') return 0;
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : null;
}

/** 0..2 ("" = the model's default, undefined), or null. */
function parseTemperature(text: string): number | undefined | null {
  const t = text.trim();
  if (t === '') return undefined;
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return n >= 0 && n <= 2 ? n : null;
}

export interface ProviderFormProps {
  /** null adds a provider. */
  provider: ProviderProfile | null;
  /** Where a key saved now goes ("keychain" or the key file). */
  keyStorage: string;
  /** The first provider becomes the default anyway. */
  first: boolean;
  onSaved: (p: ProviderProfile) => void;
  onCancel: () => void;
}

export function ProviderForm({ provider, keyStorage, first, onSaved, onCancel }: ProviderFormProps) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(provider));
  const [apiKey, setApiKey] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState<'' | 'saving' | 'testing' | 'listing'>('');
  const [test, setTest] = useState<ProviderTestResult | null>(null);
  const [models, setModels] = useState<ListedModel[]>([]);
  const [listNote, setListNote] = useState('');
  const [priceError, setPriceError] = useState('');
  const id = useId();
  const ids = (k: string) => `${id}-${k}`;
  const compatible = draft.api === 'openai-compatible';
  const wireApi = openaiWireApi(draft.api, draft.baseUrl, draft.openaiApi);
  const defaultWireApi = openaiWireApi(draft.api, draft.baseUrl);
  const limits = limitsSummary(provider, draft.api, draft.model);

  const edit = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setFieldErrors((f) => {
      const next = { ...f };
      for (const k of Object.keys(patch)) delete next[k as Field];
      return next;
    });
    setError(null);
    setTest(null);
  };

  /** The form as the backend takes it, or null after marking the invalid fields. */
  const input = (): ProviderInput | null => {
    const contextWindow = parseCount(draft.contextWindow);
    const maxOutputTokens = parseCount(draft.maxOutputTokens);
    const temperature = parseTemperature(draft.temperature);
    const errs: Partial<Record<Field, string>> = {};
    if (contextWindow === null) errs.contextWindow = 'Enter a whole number of tokens, or leave it empty for the default.';
    if (maxOutputTokens === null) errs.maxOutputTokens = 'Enter a whole number of tokens, or leave it empty for the default.';
    if (temperature === null) errs.temperature = 'Enter a number from 0 to 2, or leave it empty for the model’s default.';
    setFieldErrors(errs);
    const prices = parsePrices(draft.prices);
    setPriceError(prices === null ? 'Enter each price as a number of US dollars per million tokens (0 to 10,000), or leave it empty.' : '');
    if (contextWindow === null || maxOutputTokens === null || temperature === null || prices === null) return null;
    const out: ProviderInput = {
      id: provider?.id ?? '',
      name: draft.name.trim(),
      api: draft.api,
      model: draft.model.trim(),
      baseUrl: draft.baseUrl.trim(),
      contextWindow,
      maxOutputTokens,
      thinking: draft.api === 'anthropic' && draft.thinking,
      isDefault: draft.isDefault,
    };
    if (temperature !== undefined) out.temperature = temperature;
    if (draft.images !== 'default') out.supportsImages = draft.images === 'on';
    if (draft.api !== 'anthropic' && draft.cacheKey !== 'default') out.promptCacheKey = draft.cacheKey === 'on';
    if (draft.api !== 'anthropic') out.openaiApi = draft.openaiApi;
    // None set is the same as absent: the profile then uses the built-in price.
    if (Object.keys(prices).length > 0) out.priceOverrides = prices;
    return out;
  };

  const showError = (err: unknown) => {
    const be = toBridgeError(err);
    const field = be.field as Field | undefined;
    if (field && ['name', 'api', 'model', 'baseUrl', 'contextWindow', 'maxOutputTokens', 'temperature', 'openaiApi'].includes(field)) {
      setFieldErrors((f) => ({ ...f, [field]: be.message }));
    } else {
      setError(be);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next = input();
    if (!next) return;
    setBusy('saving');
    setError(null);
    try {
      const saved = await bridge.saveProvider(next, apiKey);
      setApiKey('');
      onSaved(saved);
    } catch (err) {
      showError(err);
    } finally {
      setBusy('');
    }
  };

  const onTest = async () => {
    const next = input();
    if (!next) return;
    setBusy('testing');
    setError(null);
    setTest(null);
    try {
      const r = await bridge.testProvider(next, apiKey);
      setTest(r);
      if (r.models.length > 0) setModels(r.models);
    } catch (err) {
      showError(err);
    } finally {
      setBusy('');
    }
  };

  /** Fills the model picker from the server; the typed id is always kept and allowed. */
  const onListModels = async () => {
    const next = input();
    if (!next) return;
    setBusy('listing');
    setListNote('');
    try {
      const r = await bridge.listProviderModels(next, apiKey);
      setModels(r.models);
      setListNote(r.ok ? `The server lists ${r.models.length} model${r.models.length === 1 ? '' : 's'}: pick one or type an id.` : `${r.message} (${r.code})`);
    } catch (err) {
      setListNote(toBridgeError(err).message);
    } finally {
      setBusy('');
    }
  };

  const keyHelp = provider?.hasKey
    ? `A key is saved in ${keyPlace(provider.keyStorage)}. Leave this empty to keep it.`
    : `The key will be saved in ${keyPlace(keyStorage)}${keyStorage === KEYCHAIN ? '' : ' (a private file readable only by you; no OS keychain is reachable)'}.`;
  const title = provider ? `Edit ${provider.name}` : 'Add a provider';

  return (
    <form className="settings-form provider-form" aria-label={title} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h3 className="provider-form-title">{title}</h3>
      <TextField id={ids('name')} label="Name" value={draft.name} error={fieldErrors.name} placeholder="e.g. Claude at work (defaults to the model id)" onChange={(v) => edit({ name: v })} />
      <div className="field">
        <label className="field-label" htmlFor={ids('api')}>API style</label>
        {wireApi && (
          <p id={ids('apiHelp')} className="field-help">
            {WIRE_API_HELP[wireApi]}
          </p>
        )}
        <select
          id={ids('api')}
          className="select"
          value={draft.api}
          aria-describedby={wireApi ? ids('apiHelp') : undefined}
          onChange={(e) => edit({ api: e.target.value as ModelApi })}
        >
          {MODEL_PROVIDERS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id={ids('model')}
        label="Model"
        value={draft.model}
        error={fieldErrors.model}
        placeholder={MODEL_PLACEHOLDER[draft.api]}
        help={listNote || undefined}
        list={models.length > 0 ? ids('models') : undefined}
        onChange={(v) => edit({ model: v })}
      />
      {models.length > 0 && (
        <datalist id={ids('models')} data-testid="model-options">
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.displayName || undefined}
            </option>
          ))}
        </datalist>
      )}
      <div className="field">
        <Button onClick={() => void onListModels()} disabled={busy !== ''}>
          {busy === 'listing' ? 'Listing models…' : 'List the server’s models'}
        </Button>
      </div>
      <TextField
        id={ids('baseUrl')}
        label={compatible ? 'Base URL' : 'Base URL (optional)'}
        type="url"
        value={draft.baseUrl}
        error={fieldErrors.baseUrl}
        placeholder={BASE_URL_PLACEHOLDER[draft.api]}
        help={compatible ? 'The server’s OpenAI-compatible endpoint, e.g. Ollama, LM Studio, OpenRouter or vLLM.' : 'Leave empty to use the provider’s default endpoint.'}
        onChange={(v) => edit({ baseUrl: v })}
      />
      <TextField
        id={ids('key')}
        label={compatible ? 'API key (optional)' : 'API key'}
        type="password"
        autoComplete="new-password"
        value={apiKey}
        placeholder={provider?.hasKey ? 'Saved — leave empty to keep' : 'Paste your API key'}
        help={keyHelp}
        onChange={(v) => {
          setApiKey(v);
          setError(null);
          setTest(null);
        }}
      />
      <TextField
        id={ids('ctx')}
        label="Context window (tokens)"
        inputMode="numeric"
        value={draft.contextWindow}
        error={fieldErrors.contextWindow}
        placeholder="default"
        help={limits ?? 'Leave empty: known models use their own window, others the API’s default.'}
        onChange={(v) => edit({ contextWindow: v })}
      />
      <TextField id={ids('max')} label="Max output tokens" inputMode="numeric" value={draft.maxOutputTokens} error={fieldErrors.maxOutputTokens} placeholder="default" onChange={(v) => edit({ maxOutputTokens: v })} />
      <TextField id={ids('temp')} label="Temperature" inputMode="decimal" value={draft.temperature} error={fieldErrors.temperature} placeholder="model default (0–2)" onChange={(v) => edit({ temperature: v })} />
      <PriceFields id={ids('prices')} value={draft.prices} builtin={provider?.builtinPrice} error={priceError} onChange={(prices) => edit({ prices })} />
      {draft.api === 'anthropic' && (
        <div className="field field-row">
          <div>
            <div className="field-label">Extended thinking</div>
            <p id={ids('thinkingHelp')} className="field-help">Let Claude think before it answers (Anthropic only).</p>
          </div>
          <Toggle label="Extended thinking" checked={draft.thinking} onChange={(v) => edit({ thinking: v })} describedBy={ids('thinkingHelp')} />
        </div>
      )}
      <div className="field">
        <label className="field-label" htmlFor={ids('images')}>Supports images</label>
        <p id={ids('imagesHelp')} className="field-help">
          Whether pictures from tools reach the model. Turn it on for a custom or local model that accepts images; when off, the
          model is told it cannot see them.
        </p>
        <select
          id={ids('images')}
          className="select"
          value={draft.images}
          aria-describedby={ids('imagesHelp')}
          onChange={(e) => edit({ images: e.target.value as ImagesChoice })}
        >
          <option value="default">{imagesDefaultLabel(provider, draft.api, draft.model)}</option>
          <option value="on">On</option>
          <option value="off">Off</option>
        </select>
      </div>
      {draft.api !== 'anthropic' && (
        <div className="field">
          <label className="field-label" htmlFor={ids('openaiApi')}>OpenAI API</label>
          <p id={ids('openaiApiHelp')} className="field-help">
            Automatic uses the Responses API on OpenAI’s own endpoint and Chat Completions for compatible servers and other base
            URLs. Choose one when a server speaks the other.
          </p>
          <select
            id={ids('openaiApi')}
            className="select"
            value={draft.openaiApi}
            aria-describedby={ids('openaiApiHelp')}
            aria-invalid={Boolean(fieldErrors.openaiApi) || undefined}
            onChange={(e) => edit({ openaiApi: e.target.value })}
          >
            <option value="">{`Automatic (${defaultWireApi === 'responses' ? 'Responses API' : 'Chat Completions'} here)`}</option>
            <option value="responses">Responses API</option>
            <option value="chat">Chat Completions</option>
          </select>
          {fieldErrors.openaiApi && (
            <p className="field-error" role="alert">
              {fieldErrors.openaiApi}
            </p>
          )}
        </div>
      )}
      {draft.api !== 'anthropic' && (
        <div className="field">
          <label className="field-label" htmlFor={ids('cacheKey')}>Prompt cache key</label>
          <p id={ids('cacheKeyHelp')} className="field-help">
            Sends the session&apos;s id as prompt_cache_key, so the server finds the session&apos;s cached prompt again. Many
            OpenAI-compatible servers reject fields they do not know: turn it on only for one that accepts it.
          </p>
          <select
            id={ids('cacheKey')}
            className="select"
            value={draft.cacheKey}
            aria-describedby={ids('cacheKeyHelp')}
            onChange={(e) => edit({ cacheKey: e.target.value as CacheKeyChoice })}
          >
            <option value="default">{draft.api === 'openai' ? 'Default (sent to OpenAI)' : 'Default (not sent to a compatible server)'}</option>
            <option value="on">On</option>
            <option value="off">Off</option>
          </select>
        </div>
      )}
      {!first && !provider?.isDefault && (
        <div className="field">
          <label className="checkbox-label">
            <input type="checkbox" checked={draft.isDefault} onChange={(e) => edit({ isDefault: e.target.checked })} /> Use for new sessions (default)
          </label>
        </div>
      )}
      <div className="settings-actions">
        {error && (
          <p className="field-error" role="alert">
            {error.message} <span className="error-code">{error.code}</span>
          </p>
        )}
        <TestOutcome result={test} testing={busy === 'testing'} />
        <Button onClick={() => void onTest()} disabled={busy !== ''}>
          Test connection
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy === 'saving'}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={busy !== ''}>
          {provider ? 'Save provider' : 'Add provider'}
        </Button>
      </div>
    </form>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  help?: string;
  placeholder?: string;
  type?: 'text' | 'url' | 'password';
  inputMode?: 'numeric' | 'decimal';
  autoComplete?: string;
  /** The id of a datalist the field suggests from (typing anything else stays allowed). */
  list?: string;
}

function TextField({ id, label, value, onChange, error, help, placeholder, type = 'text', inputMode, autoComplete = 'off', list }: TextFieldProps) {
  const describedBy = [help && `${id}-help`, error && `${id}-err`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      {help && (
        <p id={`${id}-help`} className="field-help">
          {help}
        </p>
      )}
      <input
        id={id}
        className="input"
        type={type}
        inputMode={inputMode}
        list={list}
        spellCheck={false}
        autoComplete={autoComplete}
        placeholder={placeholder}
        value={value}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p id={`${id}-err`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
