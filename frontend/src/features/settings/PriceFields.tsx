// A provider's own prices (USD per million tokens), each optional: empty keeps the built-in
// price of the model, shown as the placeholder. A model with no price at all costs "—".
import type { ProviderProfile } from '../../bridge/types';

type PriceKey = 'input' | 'output' | 'cacheWrite' | 'cacheRead';
export type PriceDraft = Record<PriceKey, string>;
type Overrides = NonNullable<ProviderProfile['priceOverrides']>;

const LABELS: Record<PriceKey, string> = {
  input: 'Input',
  output: 'Output',
  cacheWrite: 'Cache write',
  cacheRead: 'Cache read',
};
const KEYS: PriceKey[] = ['input', 'output', 'cacheWrite', 'cacheRead'];

export function priceDraft(p: ProviderProfile | null): PriceDraft {
  const o = p?.priceOverrides ?? {};
  const text = (k: PriceKey) => (o[k] === undefined ? '' : String(o[k]));
  return { input: text('input'), output: text('output'), cacheWrite: text('cacheWrite'), cacheRead: text('cacheRead') };
}

/** The overrides the draft sets, or null when one is not a price from 0 to 10,000. */
export function parsePrices(d: PriceDraft): Overrides | null {
  const out: Overrides = {};
  for (const k of KEYS) {
    const t = d[k].trim();
    if (t === '') continue;
    const n = Number(t);
    if (!Number.isFinite(n) || n < 0 || n > 10_000) return null;
    out[k] = n;
  }
  return out;
}

export function PriceFields({ id, value, onChange, builtin, error }: {
  id: string;
  value: PriceDraft;
  onChange: (next: PriceDraft) => void;
  builtin: ProviderProfile['builtinPrice'];
  error?: string;
}) {
  return (
    <fieldset className="field price-fields" aria-describedby={`${id}-help`}>
      <legend className="field-label">Prices (USD per million tokens)</legend>
      <p id={`${id}-help`} className="field-help">
        {builtin
          ? 'Empty fields use the built-in price of this model.'
          : 'No built-in price is known for this model or server: costs show as — unless you set input and output prices.'}
      </p>
      {KEYS.map((k) => (
        <label key={k} className="price-field">
          <span>{LABELS[k]}</span>
          <input
            className="input"
            inputMode="decimal"
            aria-label={`${LABELS[k]} price`}
            placeholder={builtin ? String(builtin[k]) : '—'}
            value={value[k]}
            aria-invalid={Boolean(error) || undefined}
            onChange={(e) => onChange({ ...value, [k]: e.target.value })}
          />
        </label>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
