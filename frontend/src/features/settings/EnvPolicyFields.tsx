import { useId } from 'react';

/**
 * The environment policy lists of Settings → Agent: which variables the
 * agent's commands receive although the default rules drop them, and which
 * more to drop. Edited as text; names are separated by commas or spaces.
 */

/** What the host drops by default (backend/envpolicy.Rules). */
export const DEFAULT_DROP_RULES =
  'names ending in _API_KEY or _TOKEN, containing _SECRET or PASSWORD, ending in _PRIVATE_KEY, AWS credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, …) and the model providers’ key variables';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_NAMES = 200;
const MAX_NAME_LENGTH = 128;

/** Splits an edited list into names. */
export function parseEnvNames(text: string): string[] {
  return text.split(/[\s,]+/).filter((n) => n !== '');
}

/** Formats names for editing. */
export function formatEnvNames(names: readonly string[]): string {
  return names.join(', ');
}

/** Why text is not a valid list (null when it is), as the backend checks it. */
export function envNamesError(text: string): string | null {
  const names = parseEnvNames(text);
  if (names.length > MAX_NAMES) return `List at most ${MAX_NAMES} variables.`;
  for (const [i, n] of names.entries()) {
    if (!NAME.test(n) || n.length > MAX_NAME_LENGTH) {
      return `“${n}” is not a variable name: use letters, digits and underscores, not starting with a digit.`;
    }
    if (names.indexOf(n) !== i) return `${n} is listed twice; remove one.`;
  }
  return null;
}

interface Props {
  pass: string;
  drop: string;
  passError?: string;
  dropError?: string;
  onPassChange: (text: string) => void;
  onDropChange: (text: string) => void;
  /** The field was left (or Enter pressed): save it. */
  onPassLeave?: () => void;
  onDropLeave?: () => void;
}

export function EnvPolicyFields({ pass, drop, passError, dropError, onPassChange, onDropChange, onPassLeave, onDropLeave }: Props) {
  const rulesId = useId();
  return (
    <div className="field env-policy">
      <div className="field-label">Command environment</div>
      <p id={rulesId} className="field-help">
        Commands the agent runs get this app’s environment without credentials: {DEFAULT_DROP_RULES} are removed, everything else (PATH, HOME, LANG, …) is kept.
      </p>
      <EnvList label="Pass through anyway" placeholder="e.g. GITHUB_TOKEN, NPM_TOKEN" value={pass} error={passError} rulesId={rulesId} field="envPassthrough" onChange={onPassChange} onLeave={onPassLeave} />
      <EnvList label="Also remove" placeholder="e.g. DATABASE_URL" value={drop} error={dropError} rulesId={rulesId} field="envDrop" onChange={onDropChange} onLeave={onDropLeave} />
    </div>
  );
}

function EnvList({ label, placeholder, value, error, rulesId, field, onChange, onLeave }: {
  label: string; placeholder: string; value: string; error?: string; rulesId: string; field: string; onChange: (text: string) => void; onLeave?: () => void;
}) {
  const id = useId();
  const errId = useId();
  return (
    <div className="env-list">
      <label className="field-label" htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input input-wide"
        type="text"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        data-field={field}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={error ? `${rulesId} ${errId}` : rulesId}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onLeave}
      />
      {error && (
        <p id={errId} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
