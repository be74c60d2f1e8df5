// What a plugin contributes and asks for, as its consent card and its row in Settings →
// Plugins show it: the same contents `pi-desktop plugins install` prints.
import type { PluginSummary } from '../../bridge/plugins';

const RISK_LABEL = { low: 'low risk', medium: 'medium risk', high: 'high risk' } as const;

function argv(command: string, args: string[]): string {
  return [command, ...args].map((a) => (/[\s"']/.test(a) || a === '' ? JSON.stringify(a) : a)).join(' ');
}

export function Contributions({ summary: s }: { summary: PluginSummary }) {
  return (
    <dl className="plugin-facts">
      <dt>Permissions</dt>
      <dd>{s.permissions.join(', ') || 'none'}</dd>
      {s.command && (
        <>
          <dt>Runs</dt>
          <dd>
            <code>{argv(s.command, s.args)}</code> in the plugin folder
          </dd>
        </>
      )}
      <dt>Tools</dt>
      <dd>
        {s.tools.length === 0 ? (
          'none'
        ) : (
          <ul aria-label="Tools">
            {s.tools.map((t) => (
              <li key={t.name}>
                <code>{t.modelName}</code> <span className={`badge plugin-risk plugin-risk-${t.risk}`}>{RISK_LABEL[t.risk]}</span>{' '}
                {t.planSafeActions.length > 0 ? `plan-safe actions: ${t.planSafeActions.join(', ')}` : 'Agent mode only'}
                <span className="muted"> — {t.description}</span>
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Skills</dt>
      <dd>{s.skills.join(', ') || 'none'}</dd>
      <dt>Subagents</dt>
      <dd>{s.subagents.join(', ') || 'none'}</dd>
      <dt>Commands</dt>
      <dd>{s.commands.join(', ') || 'none'}</dd>
      <dt>MCP servers</dt>
      <dd>
        {s.mcpServers.length === 0 ? (
          'none'
        ) : (
          <ul aria-label="MCP servers">
            {s.mcpServers.map((m) => (
              <li key={m.id}>
                <strong>{m.id}</strong> ({m.transport}): <code>{m.url || argv(m.command, m.args)}</code>
              </li>
            ))}
          </ul>
        )}
      </dd>
      {s.warnings.length > 0 && (
        <>
          <dt>Warnings</dt>
          <dd>
            <ul>
              {s.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}
