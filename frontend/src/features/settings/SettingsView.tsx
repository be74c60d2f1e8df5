import { ArrowLeft } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError } from '../../bridge/errors';
import type { AppInfo, PermissionMode, Settings, ThemeSetting } from '../../bridge/types';
import { PERMISSION_MODES, THEMES, parseTimeoutSeconds } from '../../lib/labels';
import { useApp } from '../../state/AppContext';
import { useWorkspace } from '../../state/WorkspaceContext';
import { queryKeys } from '../../state/queryKeys';
import { useToasts } from '../../state/ToastContext';
import { IconButton } from '../../ui/Button';
import { ErrorBox } from '../../ui/ErrorBox';
import { Segmented } from '../../ui/Segmented';
import { Toggle } from '../../ui/Toggle';
import { EnvPolicyFields, envNamesError, formatEnvNames, parseEnvNames } from './EnvPolicyFields';
import { ProtectedPathsNote } from './ProtectedPathsNote';
import { ProvidersSection } from './ProvidersSection';
import { ServersSection as MCPServersSection } from '../mcp/ServersSection';
import { SubagentsSection } from '../subagents/SubagentsSection';
import { PluginsSection, type PluginInstall } from '../plugins/PluginsSection';
import { PermissionsSection } from './PermissionsSection';
import { CheckpointsSection } from './CheckpointsSection';

type Field = keyof Settings;
type Draft = Omit<Settings, 'permissionTimeoutSeconds' | 'envPassthrough' | 'envDrop'> & {
  permissionTimeoutSeconds: string;
  envPassthrough: string;
  envDrop: string;
};

function toDraft(s: Settings): Draft {
  return {
    ...s,
    permissionTimeoutSeconds: String(s.permissionTimeoutSeconds),
    envPassthrough: formatEnvNames(s.envPassthrough),
    envDrop: formatEnvNames(s.envDrop),
  };
}

const FIELDS: readonly Field[] = [
  'defaultPermissionMode',
  'defaultCommandShell',
  'inlineVisualizations',
  'permissionTimeoutSeconds',
  'theme',
  'envPassthrough',
  'envDrop',
];

export function SettingsView({ onClose }: { onClose: () => void }) {
  const app = useApp();
  const ws = useWorkspace();
  // Read once: the intent opens the add form for this visit only.
  const [addProvider] = useState(() => ws.state.settingsIntent === 'add-provider');
  // A .piplug handed to the app, kept until the Plugins section shows (after the settings
  // load) and staged there, also when it comes while Settings is open.
  const intent = ws.state.settingsIntent;
  const [install, setInstall] = useState<PluginInstall | null>(null);
  const { intentDone } = ws;
  useEffect(() => {
    if (typeof intent === 'object' && intent !== null) setInstall((prev) => ({ path: intent.installPlugin, n: (prev?.n ?? 0) + 1 }));
    intentDone();
  }, [intentDone, intent]);
  const { reportError, notify } = useToasts();
  // Read afresh each time the view opens; the form starts from that read.
  const settingsQuery = useQuery({ queryKey: queryKeys.settings, queryFn: bridge.getSettings, refetchOnMount: 'always' });
  const infoQuery = useQuery({ queryKey: queryKeys.info, queryFn: bridge.info, refetchOnMount: 'always' });
  const fresh = settingsQuery.isFetchedAfterMount && infoQuery.isFetchedAfterMount;
  const loaded = fresh ? settingsQuery.data : undefined;
  const info = fresh ? (infoQuery.data ?? null) : null;
  const failed = settingsQuery.error ?? infoQuery.error;
  const loadError = failed ? toBridgeError(failed) : null;
  const [saved, setSaved] = useState<Draft | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saving, setSaving] = useState(false);
  // The last stored values, read by commits that run after a render that has not caught up.
  const savedRef = useRef<Draft | null>(null);

  useEffect(() => {
    if (!loaded || saved !== null) return;
    savedRef.current = toDraft(loaded);
    setSaved(toDraft(loaded));
    setDraft(toDraft(loaded));
  }, [loaded, saved]);

  const set = <K extends Field>(field: K, value: Draft[K]) => {
    setDraft((d) => (d ? { ...d, [field]: value } : d));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  // Every setting saves on its own as soon as it changes (a text field when it is left
  // or Enter is pressed), and the toast that says so offers Undo: one model for the
  // whole of Settings, where the lists above also act at once.
  const commit = async <K extends Field>(field: K, value: Draft[K], undo: boolean) => {
    const base = savedRef.current;
    if (!base || base[field] === value) return;
    const local = localError(field, value);
    if (local) {
      setErrors((e) => ({ ...e, [field]: local }));
      return;
    }
    const next = toSettings({ ...base, [field]: value });
    setSaving(true);
    try {
      const stored = await bridge.updateSettings(next);
      const before = base[field];
      app.setSettings(stored);
      savedRef.current = toDraft(stored);
      setSaved(toDraft(stored));
      setDraft((d) => (d ? { ...d, [field]: toDraft(stored)[field] } : d));
      setErrors((e) => ({ ...e, [field]: undefined }));
      if (undo) notify(`${FIELD_LABEL[field]} restored.`);
      else notify(`${FIELD_LABEL[field]} saved.`, { label: 'Undo', run: () => void commit(field, before, true) });
    } catch (err) {
      const be = toBridgeError(err);
      const named = be.field as Field | undefined;
      if (named && FIELDS.includes(named)) setErrors((e) => ({ ...e, [named]: be.message }));
      else reportError(be, () => void commit(field, value, undo));
    } finally {
      setSaving(false);
    }
  };

  // Controls with a single choice save when chosen.
  const choose = <K extends Field>(field: K, value: Draft[K]) => {
    set(field, value);
    void commit(field, value, false);
  };
  // Text fields save when left or on Enter.
  const leave = (field: Field) => {
    if (draft) void commit(field, draft[field], false);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const el = document.activeElement;
    const field = el instanceof HTMLElement ? (el.dataset.field as Field | undefined) : undefined;
    if (field) leave(field);
  };

  const retryLoad = () => {
    void settingsQuery.refetch();
    void infoQuery.refetch();
  };

  return (
    <section className="settings-pane" aria-labelledby="settings-title">
      <header className="pane-header">
        <IconButton label="Back" title="Back to the session" onClick={onClose}>
          <ArrowLeft size={16} aria-hidden="true" />
        </IconButton>
        <h1 id="settings-title" className="pane-title">Settings</h1>
        <span className="save-status" role="status">
          {saving ? 'Saving…' : 'Changes save as you make them'}
        </span>
      </header>
      <div className="settings-scroll">
        {loadError ? (
          <div className="settings-column">
            <ErrorBox what="Settings could not be loaded." error={loadError} onRetry={retryLoad} />
          </div>
        ) : !draft || !info ? (
          <p className="muted">Loading settings…</p>
        ) : (
          // One column for every section, so every group lines up.
          <div className="settings-column">
            <ProvidersSection startAdding={addProvider} />
            <MCPServersSection />
            <SubagentsSection />
            <PluginsSection install={install} />
            <PermissionsSection />
            <CheckpointsSection />
            <form className="settings-form" onSubmit={onSubmit} noValidate>
              <SettingsGroup title="Agent">
                <PermissionField value={draft.defaultPermissionMode} error={errors.defaultPermissionMode} onChange={(v) => choose('defaultPermissionMode', v)} />
                <ProtectedPathsNote />
                <ShellField value={draft.defaultCommandShell} shells={info.commandShells} error={errors.defaultCommandShell} onChange={(v) => choose('defaultCommandShell', v)} />
                <TimeoutField value={draft.permissionTimeoutSeconds} error={errors.permissionTimeoutSeconds} onChange={(v) => set('permissionTimeoutSeconds', v)} onLeave={() => leave('permissionTimeoutSeconds')} />
                <VisualizationsField value={draft.inlineVisualizations} error={errors.inlineVisualizations} onChange={(v) => choose('inlineVisualizations', v)} />
                <EnvPolicyFields
                  pass={draft.envPassthrough}
                  drop={draft.envDrop}
                  passError={errors.envPassthrough}
                  dropError={errors.envDrop}
                  onPassChange={(v) => set('envPassthrough', v)}
                  onDropChange={(v) => set('envDrop', v)}
                  onPassLeave={() => leave('envPassthrough')}
                  onDropLeave={() => leave('envDrop')}
                />
              </SettingsGroup>
              <SettingsGroup title="Appearance">
                <ThemeField value={draft.theme} error={errors.theme} onChange={(v) => choose('theme', v)} />
              </SettingsGroup>
              {/* Enter in a text field submits: that saves the field. */}
              <button type="submit" hidden tabIndex={-1} />
            </form>
            <SettingsGroup title="About">
              <dl className="about">
                <dt>Version</dt>
                <dd>{info.version}</dd>
                <dt>Platform</dt>
                <dd>{info.platform}</dd>
                <dt>Data directory</dt>
                <dd>
                  <code className="selectable">{info.dataDir}</code>
                </dd>
              </dl>
            </SettingsGroup>
          </div>
        )}
      </div>
    </section>
  );
}

const FIELD_LABEL: Record<Field, string> = {
  defaultPermissionMode: 'Default permission mode',
  defaultCommandShell: 'Default command shell',
  inlineVisualizations: 'Inline visualizations',
  permissionTimeoutSeconds: 'Permission card timeout',
  theme: 'Theme',
  envPassthrough: 'Pass through anyway',
  envDrop: 'Also remove',
};

/** Why a field's edited value cannot be saved, checked before the backend is asked. */
function localError(field: Field, value: Draft[Field]): string | null {
  if (field === 'permissionTimeoutSeconds' && parseTimeoutSeconds(String(value)) === null) {
    return 'Enter a whole number of seconds from 0 to 86400.';
  }
  if (field === 'envPassthrough' || field === 'envDrop') return envNamesError(String(value));
  return null;
}

function toSettings(d: Draft): Settings {
  return {
    ...d,
    permissionTimeoutSeconds: parseTimeoutSeconds(d.permissionTimeoutSeconds) ?? 0,
    envPassthrough: parseEnvNames(d.envPassthrough),
    envDrop: parseEnvNames(d.envDrop),
  };
}

function SettingsGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="settings-group">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className="field-error" role="alert">
      {error}
    </p>
  ) : null;
}

function PermissionField({ value, error, onChange }: { value: PermissionMode; error?: string; onChange: (v: PermissionMode) => void }) {
  const descId = useId();
  const errId = useId();
  const current = PERMISSION_MODES.find((m) => m.value === value);
  return (
    <div className="field">
      <div className="field-label" id={`${descId}-label`}>Default permission mode</div>
      <Segmented
        label="Default permission mode"
        value={value}
        options={PERMISSION_MODES}
        onChange={onChange}
        describedBy={error ? `${descId} ${errId}` : descId}
        invalid={Boolean(error)}
      />
      <ul id={descId} className="mode-help">
        {PERMISSION_MODES.map((m) => (
          <li key={m.value} className={m === current ? 'is-current' : undefined}>
            <strong>{m.label}</strong> — {m.description}
          </li>
        ))}
      </ul>
      <FieldError id={errId} error={error} />
    </div>
  );
}

function ShellField({ value, shells, error, onChange }: { value: string; shells: AppInfo['commandShells']; error?: string; onChange: (v: string) => void }) {
  const id = useId();
  const errId = useId();
  const known = shells.some((s) => s.id === value);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>Default command shell</label>
      <p className="field-help">The shell the agent’s command tool runs in.</p>
      <select id={id} className="select" value={value} aria-invalid={Boolean(error) || undefined} aria-describedby={error ? errId : undefined} onChange={(e) => onChange(e.target.value)}>
        {!known && <option value={value}>{value === '' ? 'Choose a shell' : `${value} (unavailable)`}</option>}
        {shells.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
      <FieldError id={errId} error={error} />
    </div>
  );
}

function TimeoutField({ value, error, onChange, onLeave }: { value: string; error?: string; onChange: (v: string) => void; onLeave: () => void }) {
  const id = useId();
  const helpId = useId();
  const errId = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>Permission card timeout (seconds)</label>
      <p id={helpId} className="field-help">Deny an unanswered permission request after this long. 0 means never.</p>
      <input
        id={id}
        className="input input-number"
        type="number"
        inputMode="numeric"
        min={0}
        max={86400}
        step={1}
        value={value}
        data-field="permissionTimeoutSeconds"
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={error ? `${helpId} ${errId}` : helpId}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onLeave}
      />
      <FieldError id={errId} error={error} />
    </div>
  );
}

function VisualizationsField({ value, error, onChange }: { value: boolean; error?: string; onChange: (v: boolean) => void }) {
  const helpId = useId();
  const errId = useId();
  return (
    <div className="field field-row">
      <div>
        <div className="field-label">Inline visualizations</div>
        <p id={helpId} className="field-help">Let the agent render charts and diagrams in a sandboxed frame inside the transcript.</p>
        <FieldError id={errId} error={error} />
      </div>
      <Toggle label="Inline visualizations" checked={value} onChange={onChange} describedBy={error ? `${helpId} ${errId}` : helpId} />
    </div>
  );
}

function ThemeField({ value, error, onChange }: { value: ThemeSetting; error?: string; onChange: (v: ThemeSetting) => void }) {
  const errId = useId();
  return (
    <div className="field">
      <div className="field-label">Theme</div>
      <Segmented label="Theme" value={value} options={THEMES} onChange={onChange} describedBy={error ? errId : undefined} invalid={Boolean(error)} />
      <FieldError id={errId} error={error} />
    </div>
  );
}
