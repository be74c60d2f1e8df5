import { Bot, FlaskConical, FolderInput, FolderPlus } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as bridge from '../../bridge';
import { queryKeys } from '../../state/queryKeys';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { AddProjectByPathDialog } from '../sidebar/AddProjectByPath';
import { TEMPORARY_HINT } from '../sidebar/Sidebar';

export function Welcome() {
  const ws = useWorkspace();
  const hasProjects = ws.state.projects.length > 0;
  const [byPath, setByPath] = useState(false);
  // Re-read on providers:changed (features/app/cacheRules), so adding one ends this step.
  const providers = useQuery({ queryKey: queryKeys.providers, queryFn: bridge.listProviders });
  const noModel = providers.data !== undefined && providers.data.providers.length === 0 && !providers.data.environment;
  // The first run (no project, no model): the model comes first, or the first prompt fails.
  if (noModel && ws.state.projectsLoaded && !hasProjects) {
    return (
      <section className="welcome" aria-labelledby="welcome-title">
        <div className="welcome-card">
          <h1 id="welcome-title">Welcome to PI-Desktop</h1>
          <p className="muted">
            First, connect a model: the agent needs one to answer. Add a provider (Anthropic, OpenAI or any OpenAI-compatible server such as Ollama) with
            its API key; then add a project folder and start a session.
          </p>
          <div className="welcome-actions">
            <Button variant="primary" icon={<Bot size={16} aria-hidden="true" />} onClick={() => ws.showView('settings', 'add-provider')}>
              Add a model provider
            </Button>
          </div>
        </div>
      </section>
    );
  }
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-card">
        <h1 id="welcome-title">What are we working on?</h1>
        <p className="muted">
          {hasProjects
            ? 'Pick a session in the sidebar, start a new one in a project, or try something in a temporary session.'
            : 'Add a project folder so the agent can read and change its files, or start a temporary session in a private scratch folder.'}
        </p>
        <div className="welcome-actions">
          <Button variant="primary" icon={<FolderPlus size={16} aria-hidden="true" />} onClick={() => void ws.addProject()}>
            Add project
          </Button>
          <Button icon={<FlaskConical size={16} aria-hidden="true" />} title={TEMPORARY_HINT} onClick={() => void ws.newSession('')}>
            Start a temporary session
          </Button>
        </div>
        <p className="welcome-alt">
          <Button variant="ghost" size="sm" icon={<FolderInput size={14} aria-hidden="true" />} onClick={() => setByPath(true)}>
            Add project by path…
          </Button>
        </p>
        {byPath && <AddProjectByPathDialog onClose={() => setByPath(false)} />}
      </div>
    </section>
  );
}
