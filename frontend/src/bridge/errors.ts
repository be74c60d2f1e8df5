// Every rejected bridge call is normalized into a BridgeError. Our Go ErrorFormatter
// rejects with {code, message, details}; anything else (a string, an Error, junk) is
// mapped to code INTERNAL. The UI switches on `code`, never on `message`.

export type ErrorDetails = Record<string, unknown>;

/** Codes the UI reacts to. The backend may send others; they are still strings. */
export const ErrorCode = {
  Internal: 'INTERNAL',
  InvalidArgument: 'INVALID_ARGUMENT',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  StorageUnavailable: 'STORAGE_UNAVAILABLE',
  StorageCorrupt: 'STORAGE_CORRUPT',
  SchemaTooNew: 'SCHEMA_TOO_NEW',
  MigrationFailed: 'MIGRATION_FAILED',
  ProjectNotFound: 'PROJECT_NOT_FOUND',
  SessionNotFound: 'SESSION_NOT_FOUND',
  CommandShellInvalid: 'COMMAND_SHELL_INVALID',
  ModelNotConfigured: 'MODEL_NOT_CONFIGURED',
  AgentBusy: 'AGENT_BUSY',
  TurnAborted: 'TURN_ABORTED',
  TurnInterrupted: 'TURN_INTERRUPTED',
} as const;

export class BridgeError extends Error {
  readonly code: string;
  readonly details: ErrorDetails;

  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'BridgeError';
    this.code = code;
    this.details = details;
  }

  /** details.field when the backend named the offending input field. */
  get field(): string | undefined {
    const f = this.details.field;
    return typeof f === 'string' && f !== '' ? f : undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fromPayload(v: Record<string, unknown>): BridgeError | null {
  if (typeof v.code !== 'string' || v.code === '') return null;
  const message = typeof v.message === 'string' && v.message !== '' ? v.message : v.code;
  const details = isRecord(v.details) ? v.details : {};
  return new BridgeError(v.code, message, details);
}

/** Normalizes whatever a rejected Wails promise carried into a BridgeError. */
export function toBridgeError(reason: unknown): BridgeError {
  if (reason instanceof BridgeError) return reason;
  if (isRecord(reason)) {
    const e = fromPayload(reason);
    if (e) return e;
  }
  if (typeof reason === 'string') {
    const text = reason.trim();
    if (text.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (isRecord(parsed)) {
          const e = fromPayload(parsed);
          if (e) return e;
        }
      } catch {
        // not JSON: fall through to a plain message
      }
    }
    return new BridgeError(ErrorCode.Internal, text || 'Unknown error');
  }
  if (reason instanceof Error) {
    return new BridgeError(ErrorCode.Internal, reason.message || 'Unknown error');
  }
  if (isRecord(reason) && typeof reason.message === 'string' && reason.message !== '') {
    return new BridgeError(ErrorCode.Internal, reason.message);
  }
  return new BridgeError(ErrorCode.Internal, 'Unknown error');
}
