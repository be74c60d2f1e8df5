import { TriangleAlert } from 'lucide-react';
import type { BridgeError } from '../../bridge/errors';
import { useTheme } from './useTheme';

const HEADINGS: Record<string, string> = {
  SCHEMA_TOO_NEW: 'This data was written by a newer PI-Desktop',
  STORAGE_CORRUPT: 'The database is damaged',
  STORAGE_UNAVAILABLE: 'The data directory is not available',
  MIGRATION_FAILED: 'The database could not be upgraded',
  STORAGE_FOREIGN: 'The database belongs to another program',
  DATA_DIR_NOT_WRITABLE: 'The data folder is not writable',
};

/** Full-window screen shown when the backend could not start. Nothing else is rendered. */
export function StartupError({ error }: { error: BridgeError }) {
  useTheme('system');
  return (
    <main className="startup-error" role="alert" aria-labelledby="startup-error-title">
      <div className="startup-error-card">
        <TriangleAlert size={32} aria-hidden="true" className="startup-error-icon" />
        <h1 id="startup-error-title">{HEADINGS[error.code] ?? 'PI-Desktop could not start'}</h1>
        <p className="startup-error-message selectable">{error.message}</p>
        <p className="startup-error-code">
          Error code <code>{error.code}</code>
        </p>
      </div>
    </main>
  );
}
