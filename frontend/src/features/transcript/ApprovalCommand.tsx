// A Bash card's command as the shell parser sees it (issue 19): each simple command on
// its own line with its decision and why, the wrappers looked through, the files its
// redirections would write with where they land, and the rules that matched. A user
// must never approve a second half they did not see.
import type { CommandEffect } from '../../bridge/types';

const DECISION_LABEL: Record<string, string> = {
  allow: 'allowed by rule',
  deny: 'denied',
};

const ROOT_LABEL: Record<string, string> = {
  workspace: 'workspace',
  scratch: 'scratch',
  visualization: 'visualizations',
  external: 'outside',
  null: 'discarded',
  unknown: 'unknown until it runs',
};

function decisionLabel(d: string): string {
  return DECISION_LABEL[d] ?? 'needs you';
}

function decisionClass(d: string): string {
  return d === 'allow' || d === 'deny' ? d : 'ask';
}

export function ApprovalCommand({ effect }: { effect: CommandEffect }) {
  if (effect.dialect === '') return null;
  return (
    <div className="approval-command">
      {(effect.parseError || effect.dialect !== 'posix') && <p className="approval-command-note">{effect.reason}</p>}
      <ul className="approval-command-lines" aria-label="Commands">
        {effect.commands.map((c, i) => (
          <li key={i} className={`approval-command-line decision-${decisionClass(c.decision)}`}>
            <span className={`badge approval-command-decision decision-${decisionClass(c.decision)}`}>{decisionLabel(c.decision)}</span>
            <code className="selectable">{c.text}</code>
            {c.wrappers.length > 0 && <span className="approval-command-wrappers">through {c.wrappers.join(', ')}</span>}
            <span className="approval-command-reason">{c.reason}</span>
          </li>
        ))}
      </ul>
      {effect.writes.length > 0 && (
        <ul className="approval-command-writes" aria-label="Files it writes">
          {effect.writes.map((w, i) => (
            <li key={i} className={`approval-command-write decision-${decisionClass(w.decision)}`}>
              <span className={`badge approval-command-root root-${w.root}`}>{ROOT_LABEL[w.root] ?? w.root}</span>
              <code className="selectable">{w.abs || w.path}</code>
              <span className="approval-command-via">via {w.via}</span>
              {w.reason && <span className="approval-command-reason">{w.reason}</span>}
            </li>
          ))}
        </ul>
      )}
      {effect.matched.length > 0 && <p className="approval-command-matched">matched: {effect.matched.join(', ')}</p>}
    </div>
  );
}
