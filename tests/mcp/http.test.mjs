// The MCP client suite over Streamable HTTP: `codemode serve` on a random
// loopback port, the TypeScript SDK's client at /mcp with the bearer token.
import { after, before } from 'node:test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bin, suite, token, writeConfig } from './suite.mjs';

const servers = [];
const bases = [];

// Two servers: timeoutMs short and long (see writeConfig).
before(async () => {
  for (const slow of [false, true]) {
    const server = spawn(bin, ['serve', '--config', writeConfig(slow), '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    servers.push(server);
    const [line] = await once(createInterface({ input: server.stdout }), 'line');
    bases.push(line.replace('codemode serving on ', ''));
  }
});

// SIGKILL: serve's graceful shutdown waits up to 5 s for connections the
// client opened without a request yet (net/http treats them as busy until
// then), which is not under test here; the servers hold no children.
after(() => servers.forEach((s) => s.kill('SIGKILL')));

suite((client, slow) =>
  client.connect(
    new StreamableHTTPClientTransport(new URL(bases[slow ? 1 : 0] + '/mcp'), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  ),
);
