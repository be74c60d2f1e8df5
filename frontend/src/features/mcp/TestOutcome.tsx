// What Test found, announced politely (role=status): the server's tools, or the error
// with its stable code and the server's last stderr lines.
import { Check, X } from 'lucide-react';
import type { MCPTestResult } from '../../bridge/types';
import { formatTokens, toolCount } from './labels';

export function TestOutcome({ result, testing }: { result: MCPTestResult | null; testing: boolean }) {
  const failed = result !== null && !result.ok;
  return (
    <div className={`mcp-test${failed ? ' is-error' : ''}`} role="status">
      {testing && <span className="test-outcome">Connecting…</span>}
      {!testing && result?.ok && (
        <>
          <span className="test-outcome">
            <Check size={14} aria-hidden="true" /> Connected: {toolCount(result.tools.length)}
          </span>
          {result.tools.length > 0 && (
            <ul className="mcp-test-tools" aria-label="Tools found">
              {result.tools.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>
                  {t.title && t.title !== t.name && <> — {t.title}</>}
                  <span className="muted"> · {formatTokens(t.schemaTokens)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {!testing && failed && (
        <>
          <span className="test-outcome is-error">
            <X size={14} aria-hidden="true" /> {result.error || 'The server could not be reached.'} {result.errorCode && <code className="error-code">{result.errorCode}</code>}
          </span>
          <LogTail lines={result.logTail} />
        </>
      )}
    </div>
  );
}

/** The server's last stderr lines, when there are any. */
export function LogTail({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <pre className="tool-output mcp-log-tail selectable" tabIndex={0} aria-label="Last log lines">
      {lines.join('\n')}
    </pre>
  );
}
