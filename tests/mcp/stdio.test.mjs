// The MCP client suite over stdio: the TypeScript SDK's client starts
// `codemode mcp --config FILE` as an MCP host would.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, suite, writeConfig } from './suite.mjs';

const configs = [writeConfig(), writeConfig(true)];
suite((client, slow) => client.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--config', configs[slow ? 1 : 0]], stderr: 'inherit' })));
