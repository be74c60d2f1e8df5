// The composer's model picker: which saved provider this session's next turns use.
// "Default" follows the default provider; choosing one pins it to the session.
import { Bot, ChevronDown } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import * as bridge from '../../bridge';
import type { ProviderList } from '../../bridge/types';
import { useToasts } from '../../state/ToastContext';
import { useMenu, type MenuItem } from '../../ui/Menu';

export interface ModelPickerProps {
  sessionId: string;
  /** Opens Settings → Models (offered when nothing is saved). */
  onOpenSettings?: () => void;
}

export function ModelPicker({ sessionId, onOpenSettings }: ModelPickerProps) {
  const { reportError } = useToasts();
  const [list, setList] = useState<ProviderList | null>(null);
  /** "" = the session follows the default. */
  const [chosen, setChosen] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [l, c] = await Promise.all([bridge.listProviders(), bridge.getSessionProvider(sessionId)]);
      setList(l);
      setChosen(c);
    } catch (err) {
      reportError(err);
    }
  }, [sessionId, reportError]);

  useEffect(() => {
    void reload();
    return bridge.onProvidersChanged(() => void reload());
  }, [reload]);

  const choose = async (providerId: string) => {
    const before = chosen;
    setChosen(providerId);
    try {
      await bridge.setSessionProvider(sessionId, providerId);
    } catch (err) {
      setChosen(before);
      reportError(err);
      void reload();
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
