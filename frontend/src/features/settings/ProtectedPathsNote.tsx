import { useId } from 'react';

// The paths backend/permission/protected.go protects. The rule lives in the
// host; this list only explains it, so keep the two in step.
export const PROTECTED_PATHS: readonly { path: string; why: string }[] = [
  { path: '.git/', why: 'hooks and config there run code at your next git command; also a worktree’s or submodule’s .git file and the git folder it points to' },
  { path: '.agents/', why: 'the agent’s own configuration' },
  { path: '.pi/', why: 'the agent’s own configuration, except the plans and goals PI-Desktop saves in .pi/plan and .pi/goal' },
  { path: '.claude/', why: 'the agent’s own configuration' },
  { path: '.mcp.json', why: 'the MCP servers the agent may start' },
];

/** A read-only explanation of the paths whose changes always ask. */
export function ProtectedPathsNote() {
  const titleId = useId();
  return (
    <section className="field" aria-labelledby={titleId}>
      <h3 id={titleId} className="field-label">
        Protected paths
      </h3>
      <p className="field-help">
        Writes and edits here always show an approval card, in every permission mode including Auto, anywhere in the project (nested folders and
        any letter case too). Allowing one for the session covers only that kind of protected path, never other files.
      </p>
      <ul className="mode-help">
        {PROTECTED_PATHS.map((p) => (
          <li key={p.path}>
            <code>{p.path}</code> — {p.why}
          </li>
        ))}
      </ul>
    </section>
  );
}
