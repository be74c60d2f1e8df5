import { describe, expect, it } from 'vitest';
import { mcpServer, mcpTool } from '../../test/fakeBridge';
import { mcpToolName } from './toolNames';

const catalog = [
  mcpServer('everything', { tools: [mcpTool('everything', 'get-sum', { title: 'Add two numbers' })] }),
  mcpServer('my_db', { tools: [mcpTool('my_db', 'run_query', { modelName: 'mcp_my_db_run_query_3f2a' })] }),
];

describe('mcpToolName', () => {
  it.each([
    { name: 'Read', want: null },
    { name: 'mcp_', want: null },
    // The catalog is exact, even for a name cut and suffixed with a hash.
    { name: 'mcp_everything_get-sum', want: { server: 'everything', tool: 'get-sum', title: 'Add two numbers' } },
    { name: 'mcp_my_db_run_query_3f2a', want: { server: 'my_db', tool: 'run_query', title: '' } },
    // A tool the catalog does not list: the longest known server id, then the first "_".
    { name: 'mcp_my_db_drop_table', want: { server: 'my_db', tool: 'drop_table', title: '' } },
    { name: 'mcp_github_create_issue', want: { server: 'github', tool: 'create_issue', title: '' } },
    { name: 'mcp_lonely', want: { server: '', tool: 'lonely', title: '' } },
  ])('$name', ({ name, want }) => {
    expect(mcpToolName(name, catalog)).toEqual(want);
  });
});
