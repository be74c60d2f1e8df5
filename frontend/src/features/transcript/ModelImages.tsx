// Whether the model of this session's next turn can see images, for the transcript's
// image notes. It reads the queries the composer's model picker reads, so both follow
// providers:changed together (features/app/cacheRules).
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { acceptsImages, sessionProfile } from '../../lib/images';
import { queryKeys } from '../../state/queryKeys';

/** null while unknown: loading, or the environment's model (no saved provider). */
const ModelImagesContext = createContext<boolean | null>(null);

export function ModelImagesProvider({ sessionId, children }: { sessionId: string; children: ReactNode }) {
  const list = useQuery({ queryKey: queryKeys.providers, queryFn: bridge.listProviders });
  const chosen = useQuery({ queryKey: queryKeys.sessionProvider(sessionId), queryFn: () => bridge.getSessionProvider(sessionId) });
  const profile = list.data && chosen.data !== undefined ? sessionProfile(list.data, chosen.data) : undefined;
  return <ModelImagesContext.Provider value={profile ? acceptsImages(profile) : null}>{children}</ModelImagesContext.Provider>;
}

/** true / false for the session's current model; null when that is not known. */
export function useModelSeesImages(): boolean | null {
  return useContext(ModelImagesContext);
}
