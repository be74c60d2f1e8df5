// The outcome of "Test connection", announced politely (role=status).
import { Check, X } from 'lucide-react';
import type { ProviderTestResult } from '../../bridge/types';

export function TestOutcome({ result, testing }: { result: ProviderTestResult | null; testing: boolean }) {
  return (
    <span className={`test-outcome${result && !result.ok ? ' is-error' : ''}`} role="status">
      {testing && 'Testing…'}
      {!testing && result?.ok && (
        <>
          <Check size={14} aria-hidden="true" /> Connected: the model answered in {result.durationMs} ms
          {result.models.length > 0 && ` · the server lists ${result.models.length} model${result.models.length === 1 ? '' : 's'}`}
          {result.modelsCode === 'MODEL_LIST_UNAVAILABLE' && ' · the server does not list its models'}
        </>
      )}
      {!testing && result && !result.ok && (
        <>
          <X size={14} aria-hidden="true" /> {result.message} <code className="error-code">{result.code}</code>
        </>
      )}
    </span>
  );
}
