// The composer's model picker: which saved provider this session's next turns use.
// "Default" follows the default provider; choosing one pins it to the session.
import { Bot, ChevronDown } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import * as bridge from '../../bridge';
import { queryKeys } from '../../state/queryKeys';
import { useToasts } from '../../state/ToastContext';
import { useMenu, type MenuItem } from '../../ui/Menu';

export interface ModelPickerProps {
  sessionId: string;
  /** Opens Settings → Models (offered when nothing is saved). */
  onOpenSettings?: () => void;
  /** Each change opens the menu (the composer's /model); 0 leaves it closed. */
  openSignal?: number;
}

export function ModelPicker({ sessionId, onOpenSettings, openSignal = 0 }: ModelPickerProps) {
  const { reportError } = useToasts();
  const client = useQueryClient();
  // Both re-read on providers:changed (features/app/cacheRules).
  const listQuery = useQuery({ queryKey: queryKeys.providers, queryFn: bridge.listProviders });
  const chosenKey = queryKeys.sessionProvider(sessionId);
  /** "" = the session follows the default. */
  const chosenQuery = useQuery({ queryKey: chosenKey, queryFn: () => bridge.getSessionProvider(sessionId) });
  const list = listQuery.data ?? null;
  const chosen = chosenQuery.data ?? null;

  const loadError = listQuery.error ?? chosenQuery.error;
  useEffect(() => {
    if (loadError) reportError(loadError);
  }, [loadError, reportError]);

  const choose = async (providerId: string) => {
    const before = chosen;
    client.setQueryData(chosenKey, providerId);
    try {
      await bridge.setSessionProvider(sessionId, providerId);
    } catch (err) {
      client.setQueryData(chosenKey, before);
      reportError(err);
      void client.invalidateQueries({ queryKey: queryKeys.providers });
    }
  };

  const providers = list?.providers ?? [];
  const fallback = providers.find((p) => p.isDefault) ?? providers[0];
  const pinned = chosen ? providers.find((p) => p.id === chosen) : undefined;
  const current = pinned ?? fallback;
  const items: MenuItem[] = [
    ...(fallback
      ? [{ label: `Default (${fallback.name})`, description: 'Follows the default provider from Settings', checked: !pinned, onSelect: () => void (pinned && choose('')) }]
      : []),
    ...providers.map((p) => ({
      label: p.name,
      description: p.name === p.model ? undefined : p.model,
      checked: pinned?.id === p.id,
      onSelect: () => void (pinned?.id !== p.id && choose(p.id)),
    })),
  ];
  const menu = useMenu('Model', items);
  const trigger = menu.triggerProps.ref;
  useEffect(() => {
    if (openSignal > 0) trigger.current?.click();
  }, [openSignal, trigger]);

  if (!list || chosen === null) return null;
  if (!current) {
    const env = list.environment;
    return env ? (
      <span className="chip chip-model" title="The model from PI_DESKTOP_PROVIDER; add a provider in Settings → Models to choose per session">
        <Bot size={13} aria-hidden="true" />
        <span>{env.model || env.api} (environment)</span>
      </span>
    ) : (
      <button type="button" className="chip chip-model" onClick={onOpenSettings} disabled={!onOpenSettings}>
        <Bot size={13} aria-hidden="true" />
        <span>Add a model…</span>
      </button>
    );
  }
  const label = pinned ? current.name : `${current.name} (default)`;
  return (
    <>
      <button type="button" className="chip chip-model" aria-label={`Model: ${label}`} title={`Model: ${current.model}`} {...menu.triggerProps}>
        <Bot size={13} aria-hidden="true" />
        <span>{label}</span>
        <ChevronDown size={12} aria-hidden="true" />
      </button>
      {menu.menu}
    </>
  );
}
