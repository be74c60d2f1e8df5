// Settings → Plugins: the installed plugins with what each contributes, enable and
// disable app-wide or per project, update, uninstall and the process log; install from a .piplug or a folder
// through a consent card that shows exactly what the plugin will be able to do before
// anything is installed or runs.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { pluginInProject, type Plugin, type PluginProjectState, type PluginStaged } from '../../bridge/plugins';
import type { Project } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { Contributions } from './Contributions';
import './plugins.css';

/** A .piplug the app was asked to open; n tells a second hand-off of the same file apart. */
export interface PluginInstall {
  path: string;
  n: number;
}

export function PluginsSection({ install = null }: { install?: PluginInstall | null } = {}) {
  const client = useQueryClient();
  const confirm = useConfirm();
  const q = useQuery({ queryKey: queryKeys.plugins, queryFn: () => bridge.listPlugins() });
  const projects = useQuery({ queryKey: queryKeys.projects, queryFn: bridge.listProjects });
  const [staged, setStaged] = useState<PluginStaged | null>(null);
  const [error, setError] = useState<BridgeError | null>(null);
  const [busy, setBusy] = useState(false);
  const reload = () => void client.invalidateQueries({ queryKey: queryKeys.plugins });
  const loadError = q.error ? toBridgeError(q.error) : null;

  const act = async (f: () => Promise<void>) => {
    setError(null);
    setBusy(true);
    try {
      await f();
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setBusy(false);
      reload();
    }
  };

  const stage = (kind: 'file' | 'folder') =>
    act(async () => {
      const s = await bridge.stagePlugin(kind);
      if (!s.cancelled) setStaged(s);
    });

  // A .piplug the app was asked to open: straight to its consent card, in view.
  const section = useRef<HTMLFieldSetElement>(null);
  const stageRef = useRef(act);
  stageRef.current = act;
  useEffect(() => {
    if (!install) return;
    section.current?.scrollIntoView?.({ block: 'start' });
    void stageRef.current(async () => setStaged(await bridge.stagePluginFile(install.path)));
  }, [install]);

  const answer = (consent: boolean) => {
    const s = staged;
    setStaged(null);
    if (!s) return;
    void act(() => (consent ? bridge.installStagedPlugin(s.token, true) : bridge.discardStagedPlugin(s.token)));
  };

  const uninstall = async (p: Plugin) => {
    const ok = await confirm({
      title: `Uninstall ${p.summary.name}?`,
      message: <p>Its tools, skills, subagents, commands and MCP servers go at once, its processes stop and its folder {p.path} is deleted.</p>,
      confirmLabel: 'Uninstall',
      danger: true,
    });
    if (ok) void act(() => bridge.removePlugin(p.summary.id));
  };

  return (
    <fieldset ref={section} className="settings-group">
      <legend>Plugins</legend>
      <p className="field-help">
        Installed bundles of agent tools, skills, subagents, commands and MCP servers. A plugin runs and contributes nothing until you
        consent to exactly what it contains; any change to it asks again.
      </p>
      {loadError ? (
        <div className="inline-error" role="alert">
          <p>The plugins could not be loaded: {loadError.message}</p>
          <p className="error-code">{loadError.code}</p>
        </div>
      ) : !q.data ? (
        <p className="muted">Loading the plugins…</p>
      ) : q.data.length === 0 ? (
        <p className="muted">No plugin is installed.</p>
      ) : (
        <ul className="provider-list" aria-label="Plugins">
          {q.data.map((p) => (
            <PluginItem
              key={p.summary.id}
              plugin={p}
              projects={projects.data}
              busy={busy}
              onToggle={(on) => void act(() => bridge.setPluginEnabled(p.summary.id, on))}
              onProject={(projectId, state) => void act(() => bridge.setPluginProject(p.summary.id, projectId, state))}
              onConsent={() => void act(() => bridge.consentPlugin(p.summary.id, p.summary.hash))}
              onUpdate={() => void stage('file')}
              onUninstall={() => void uninstall(p)}
            />
          ))}
        </ul>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error.message} <code className="error-code">{error.code}</code>
        </p>
      )}
      {staged && <ConsentCard staged={staged} onAnswer={answer} />}
      <div className="settings-actions">
        <Button onClick={() => void stage('file')} disabled={busy || staged !== null}>
          Install from .piplug…
        </Button>
        <Button onClick={() => void stage('folder')} disabled={busy || staged !== null}>
          Install from folder…
        </Button>
      </div>
    </fieldset>
  );
}

function ConsentCard({ staged: s, onAnswer }: { staged: PluginStaged; onAnswer: (consent: boolean) => void }) {
  const title = s.installedVersion ? `Update ${s.summary.name} ${s.installedVersion} → ${s.summary.version}` : `Install ${s.summary.name} ${s.summary.version}`;
  return (
    <section className="plugin-consent" role="region" aria-label="Plugin consent">
      <h3>{title}</h3>
      <p>
        <code>{s.summary.id}</code>
        {s.summary.author && <> by {s.summary.author}</>} · {s.summary.files} files
      </p>
      {s.summary.description && <p>{s.summary.description}</p>}
      <p className="field-help">
        {s.unchanged
          ? 'Nothing changed since you consented to this plugin.'
          : 'Nothing of it is installed or runs until you allow it. It will be able to do exactly this:'}
      </p>
      <Contributions summary={s.summary} />
      <div className="settings-actions">
        <Button variant="primary" onClick={() => onAnswer(true)}>
          {s.installedVersion ? 'Update and allow' : 'Install and allow'}
        </Button>
        <Button onClick={() => onAnswer(false)}>Cancel</Button>
      </div>
    </section>
  );
}

interface PluginItemProps {
  plugin: Plugin;
  /** The user's projects; undefined while they load. */
  projects: Project[] | undefined;
  busy: boolean;
  onToggle: (on: boolean) => void;
  onProject: (projectId: string, state: PluginProjectState) => void;
  onConsent: () => void;
  onUpdate: () => void;
  onUninstall: () => void;
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** The item's one-badge summary of where the plugin is on ('' when on everywhere). */
function reachBadge(p: Plugin): string {
  const on = p.projects.filter((x) => x.enabled).length;
  const off = p.projects.length - on;
  if (!p.enabled) return on > 0 ? `On in ${plural(on, 'project')} only` : 'Off app-wide';
  return off > 0 ? `Off in ${plural(off, 'project')}` : '';
}

function PluginItem({ plugin: p, projects, busy, onToggle, onProject, onConsent, onUpdate, onUninstall }: PluginItemProps) {
  const s = p.summary;
  const reach = reachBadge(p);
  const [showLog, setShowLog] = useState(false);
  const log = useQuery({ queryKey: queryKeys.pluginLog(s.id), queryFn: () => bridge.pluginLog(s.id), enabled: showLog });
  return (
    <li className="provider-item plugin" aria-label={`${s.name} ${s.version}`}>
      <div className="provider-summary">
        <strong>
          {s.name} <span className="muted">{s.version}</span>
          {reach && <span className="badge">{reach}</span>}
          {!p.consented && <span className="badge plugin-needs-consent">Needs consent</span>}
          {p.changed && <span className="badge plugin-changed">Changed on disk</span>}
          {p.running && <span className="badge">Running</span>}
        </strong>
        <p>
          <code>{s.id}</code>
          {s.description && <> — {s.description}</>}
        </p>
        {(!p.consented || p.changed) && (
          <p className="field-help">
            {p.changed
              ? 'Its files are not what was installed: it runs nothing. Install it again to review and allow it.'
              : 'It runs and contributes nothing until you allow what it contains:'}
          </p>
        )}
        <Contributions summary={s} />
        <label className="checkbox">
          <input type="checkbox" checked={p.enabled} disabled={busy} onChange={(e) => onToggle(e.target.checked)} /> Enabled app-wide
        </label>
        <p className="field-help">In every project without a choice of its own, and in sessions without a project.</p>
        <PluginProjects plugin={p} projects={projects} busy={busy} onProject={onProject} />
        <div className="settings-actions">
          {!p.consented && !p.changed && (
            <Button variant="primary" onClick={onConsent} disabled={busy}>
              Allow
            </Button>
          )}
          <Button onClick={onUpdate} disabled={busy}>
            Update from .piplug…
          </Button>
          <Button onClick={() => setShowLog((x) => !x)}>{showLog ? 'Hide log' : 'Show log'}</Button>
          <Button variant="danger" onClick={onUninstall} disabled={busy}>
            Uninstall
          </Button>
        </div>
        {showLog && (
          <pre className="plugin-log" aria-label={`${s.name} log`}>
            {log.data === undefined ? 'Loading…' : log.data || 'Its process has written nothing (or has not run).'}
          </pre>
        )}
      </div>
    </li>
  );
}

function isProjectState(x: string): x is PluginProjectState {
  return x === 'on' || x === 'off' || x === 'app';
}

/**
 * The plugin in each of the user's projects: on or off there and why (the project's own
 * choice, or the app-wide switch it follows), with a choice to turn it on or off there or
 * to follow the app-wide switch again.
 */
function PluginProjects({
  plugin: p,
  projects,
  busy,
  onProject,
}: {
  plugin: Plugin;
  projects: Project[] | undefined;
  busy: boolean;
  onProject: (projectId: string, state: PluginProjectState) => void;
}) {
  const s = p.summary;
  return (
    <fieldset className="plugin-projects">
      <legend>Projects</legend>
      <p className="field-help">
        A project&apos;s own choice wins over the app-wide switch either way, so a plugin that is off app-wide can be on in just
        one project. Changes apply at once, to sessions already open as well.
        {(!p.consented || p.changed) && ' Until you allow it, it runs in no project; these choices apply once you do.'}
      </p>
      {projects === undefined ? (
        <p className="muted">Loading the projects…</p>
      ) : projects.length === 0 ? (
        <p className="muted">No project yet. Add one from the sidebar to choose for it; until then the app-wide switch applies.</p>
      ) : (
        <ul className="plugin-project-list" aria-label={`${s.name} in projects`}>
          {projects.map((pr) => {
            const { on, own } = pluginInProject(p, pr.id);
            const state: PluginProjectState = own ? (on ? 'on' : 'off') : 'app';
            const why = own ? 'this project’s own choice' : 'follows the app-wide switch';
            return (
              <li key={pr.id} className="plugin-project" aria-label={pr.name}>
                <span className="plugin-project-name" title={pr.path}>
                  {pr.name}
                </span>
                <span className="plugin-project-state">
                  <span className={`badge ${on ? 'plugin-on' : 'plugin-off'}`}>{on ? 'On' : 'Off'}</span> <span className="muted">{why}</span>
                </span>
                <select
                  className="select"
                  aria-label={`${s.name} in ${pr.name}`}
                  value={state}
                  disabled={busy}
                  onChange={(e) => isProjectState(e.target.value) && onProject(pr.id, e.target.value)}
                >
                  <option value="app">Follow the app-wide switch ({p.enabled ? 'on' : 'off'})</option>
                  <option value="on">On in this project</option>
                  <option value="off">Off in this project</option>
                </select>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
