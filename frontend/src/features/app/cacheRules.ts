// Which backend events make which cached data stale: the single table from events to the
// query cache (keys in state/queryKeys). A new kind of data adds its rule here.
import type { QueryClient } from '@tanstack/react-query';
import * as bridge from '../../bridge';
import { ANY_SESSION, type SessionEventRouter } from '../../state/sessionEvents';
import { queryKeys } from '../../state/queryKeys';
import { addsActivity, topUpActivity } from '../activity/useActivity';
import { touchesReview } from '../review/useReviewChanges';
import { touchesCheckpoints } from '../checkpoints/useCheckpoints';

export function cacheRules(client: QueryClient, router: SessionEventRouter): () => void {
  const offs = [
    router.on('agent', ANY_SESSION, (e) => {
      if (touchesReview(e)) void client.invalidateQueries({ queryKey: queryKeys.review(e.sessionId) });
      if (addsActivity(e)) topUpActivity(client, e.sessionId);
      if (touchesCheckpoints(e)) {
        void client.invalidateQueries({ queryKey: queryKeys.checkpoints(e.sessionId) });
        void client.invalidateQueries({ queryKey: queryKeys.commandChanges(e.sessionId) });
      }
    }),
    bridge.onProvidersChanged(() => void client.invalidateQueries({ queryKey: queryKeys.providers })),
    bridge.onMCPServersChanged((e) => {
      // The app's servers are part of every project's list.
      if (e.projectId === '') void client.invalidateQueries({ queryKey: queryKeys.mcpAll });
      else void client.invalidateQueries({ queryKey: queryKeys.mcpServers(e.projectId) });
    }),
    bridge.onSettingsChanged((s) => client.setQueryData(queryKeys.settings, s)),
    bridge.onProjectsChanged(() => {
      // A project's sessions come and go with it.
      void client.invalidateQueries({ queryKey: queryKeys.projects, exact: true });
      void client.invalidateQueries({ queryKey: queryKeys.sessionLists });
    }),
    bridge.onSessionsChanged((e) => {
      // An empty projectId may mean the project is unknown (a deleted session): refresh
      // every list rather than only the temporary sessions'.
      if (e.projectId === '') void client.invalidateQueries({ queryKey: queryKeys.sessionLists });
      else void client.invalidateQueries({ queryKey: queryKeys.sessions(e.projectId) });
      void client.invalidateQueries({ queryKey: queryKeys.archived });
    }),
  ];
  return () => offs.forEach((off) => off());
}
