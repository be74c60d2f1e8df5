// The window's title says when any session waits for the user's answer on a permission
// card, so a window in the background shows it in the task bar too.
import { useEffect } from 'react';
import * as bridge from '../../bridge';
import { WAITING_FOR_APPROVAL } from '../../lib/labels';
import { useSessionActivity } from '../../state/SessionActivityContext';

export const APP_TITLE = 'PI-Desktop';

export function useWindowTitle(): void {
  const { pending } = useSessionActivity();
  const waiting = Object.values(pending).some((ids) => ids.length > 0);
  const title = waiting ? `${WAITING_FOR_APPROVAL} — ${APP_TITLE}` : APP_TITLE;
  useEffect(() => {
    bridge.setWindowTitle(title);
  }, [title]);
}
