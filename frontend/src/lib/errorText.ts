// Every error a person reads, in one place: a plain sentence and the next step for each
// stable error code (backend/errs), and whether trying again can help. The backend's
// own message stays available as the details.
import { MODEL_SETUP_HINT } from './labels';

export interface ErrorText {
  /** What happened, in plain words. */
  sentence: string;
  /** What to do now ('' when there is nothing to do). */
  next: string;
  /** Sending the same request again can succeed (a network or provider hiccup). */
  retry: boolean;
}

const MODELS = 'Settings → Models';

const TEXTS: Record<string, ErrorText> = {
  PROVIDER_ERROR: {
    sentence: 'The model provider did not answer.',
    next: `Check that its server is running and reachable and that the base URL and model id in ${MODELS} are right, then retry.`,
    retry: true,
  },
  PROVIDER_UNREACHABLE: {
    sentence: 'The model provider could not be reached.',
    next: `Check the network, that its server is running, and the base URL in ${MODELS}, then retry.`,
    retry: true,
  },
  PROVIDER_UNAUTHORIZED: {
    sentence: 'The model provider rejected the API key.',
    next: `Enter a valid key for it in ${MODELS}, then retry.`,
    retry: true,
  },
  PROVIDER_RATE_LIMITED: {
    sentence: 'The model provider is limiting requests right now.',
    next: 'Wait a moment, then retry.',
    retry: true,
  },
  MODEL_NOT_CONFIGURED: { sentence: 'No model is set up yet.', next: MODEL_SETUP_HINT, retry: false },
  CONTEXT_TOO_LARGE: {
    sentence: 'The conversation is too long for this model.',
    next: 'Start a new session, or compact this one with /compact, then send again.',
    retry: false,
  },
  EMPTY_MODEL_RESPONSE: { sentence: 'The model answered with nothing.', next: 'Retry, or rephrase the prompt.', retry: true },
  TURN_INTERRUPTED: {
    sentence: 'PI-Desktop stopped while this turn was running.',
    next: 'Check the files it touched, then send a new prompt to continue.',
    retry: false,
  },
  TURN_ABORTED: { sentence: 'The turn was stopped.', next: 'Send a new prompt to continue.', retry: false },
  AGENT_BUSY: { sentence: 'The agent is still working on this session.', next: 'Wait for it to finish, or press Stop.', retry: false },
  STORAGE_UNAVAILABLE: {
    sentence: 'PI-Desktop could not read or write its data.',
    next: 'Check that the disk has space and the data directory is writable, then try again.',
    retry: true,
  },
  NOT_FOUND: { sentence: 'That item no longer exists.', next: 'It may have been removed in another window; reload the list.', retry: false },
  SESSION_NOT_FOUND: { sentence: 'This session no longer exists.', next: 'Pick another session in the sidebar.', retry: false },
  PROJECT_NOT_FOUND: { sentence: 'This project no longer exists.', next: 'Add its folder again from the sidebar.', retry: false },
  STORAGE_CORRUPT: {
    sentence: 'PI-Desktop’s data file is damaged.',
    next: 'Quit, restore the data directory from a backup or move it aside, then start again.',
    retry: false,
  },
  CONFLICT: { sentence: 'Something changed this in the meantime.', next: 'Reload it, then make the change again.', retry: true },
  INTERNAL: {
    sentence: 'PI-Desktop hit an internal error.',
    next: 'Try again; if it keeps failing, copy the details below into a bug report.',
    retry: true,
  },
};

const UNKNOWN: ErrorText = {
  sentence: 'Something went wrong.',
  next: 'Try again; if it keeps failing, copy the details below into a bug report.',
  retry: true,
};

/**
 * The words for a failure of a request whose own message is the best sentence we have
 * (an unmapped code such as INVALID_ARGUMENT names the field and the fix itself): the
 * mapped text when the code has one, else the message as the sentence.
 */
export function errorTextFor(code: string, message: string): ErrorText {
  const t = TEXTS[code];
  if (t) return t;
  const sentence = message.trim() === '' ? UNKNOWN.sentence : message.trim();
  return { sentence: /[.!?]$/.test(sentence) ? sentence : `${sentence}.`, next: '', retry: false };
}

/**
 * The words for an error code. retriable is the backend's own verdict (a turn event's
 * flag) and, when given, decides whether Retry is offered.
 */
export function errorText(code: string, retriable?: boolean): ErrorText {
  const t = TEXTS[code] ?? UNKNOWN;
  return retriable === undefined ? t : { ...t, retry: t.retry || retriable };
}
