// The MCP server's client suite, run by stdio.test.mjs and http.test.mjs
// against the built binary (build/codemode mcp / serve) with the official
// MCP TypeScript SDK's client: tools/list, exec, a waiting run and wait, a
// guest error, a timeout, cancellation, progress, and two sessions that cannot see each
// other's runs. The SDK's client validates every structuredContent against the
// tools' outputSchema (Ajv), so the CodeModeResult schema is checked too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const bin = process.env.CODEMODE_BIN || join(root, 'build', 'codemode');
export const token = 'ts-client-token-0123456789';

/**
 * A server config: the example toolset, one token, and timeoutMs: short for
 * the waiting and timeout cases, long (slow) for cancellation, so a busy
 * machine's late timer still aborts the call before it answers.
 */
export function writeConfig(slow = false) {
  const dir = mkdtempSync(join(tmpdir(), 'codemode-mcp-'));
  const file = join(dir, 'server.json5');
  writeFileSync(file, `{
  tools: { codeMode: { enabled: true, timeoutMs: ${slow ? 30000 : 800} } },
  auth: { tokens: [ { principal: "ts", token: "${token}" } ] },
  staticDir: ".",
}`);
  return file;
}

/** connect(client, slow) opens a session over the transport under test. */
export async function open(connect, slow = false) {
  const client = new Client({ name: 'codemode-mcp-test', version: '1.0.0' });
  await connect(client, slow);
  return client;
}

const exec = (client, args, options) => client.callTool({ name: 'exec', arguments: args }, undefined, options);

/** result checks the CodeModeResult's two forms agree and returns it. */
function result(res) {
  assert.ok(res.structuredContent, 'structuredContent');
  const last = res.content.at(-1);
  assert.equal(last.type, 'text');
  assert.deepEqual(JSON.parse(last.text), res.structuredContent);
  return res.structuredContent;
}

async function waitDone(client, r) {
  for (let i = 0; r.status === 'waiting'; i++) {
    assert.ok(i < 20, 'still waiting after 20 waits');
    r = result(await client.callTool({ name: 'wait', arguments: { runId: r.runId } }));
  }
  return r;
}

export function suite(connect) {
  test('tools/list is the Code Mode surface', async () => {
    const client = await open(connect);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['exec', 'screenshot', 'wait']);
      const ex = tools.find((t) => t.name === 'exec');
      assert.match(ex.description, /openclaw:core:sleep_ms/, 'the quick index');
      assert.equal(ex.outputSchema.type, 'object');
      assert.ok(tools.find((t) => t.name === 'wait').outputSchema);
    } finally {
      await client.close();
    }
  });

  test('exec, a waiting run and wait, a guest error, a timeout', async () => {
    const client = await open(connect);
    try {
      let r = result(await exec(client, { code: 'text("hi"); return 6 * 7' }));
      assert.equal(r.status, 'completed');
      assert.equal(r.value, 42);
      assert.deepEqual(r.output, [{ type: 'text', text: 'hi' }]);

      r = result(await exec(client, { code: 'const s = await tools.sleep_ms({ms: 1200}); return s.slept' }));
      assert.equal(r.status, 'waiting');
      assert.match(r.runId, /^cm_/);
      r = await waitDone(client, r);
      assert.equal(r.status, 'completed');
      assert.equal(r.value, 1200);

      let res = await exec(client, { code: 'throw new RangeError("shipment SH-9 is not known")' });
      assert.equal(res.isError, true);
      assert.equal(res.content[0].text.split('\n')[0], 'RangeError: shipment SH-9 is not known');
      assert.equal(result(res).status, 'failed');

      res = await exec(client, { code: 'while (true) {}' });
      assert.equal(res.isError, true);
      r = result(res);
      assert.equal(r.code, 'timeout');
      assert.match(res.content[0].text, /\(timeout\)$/);

      res = await exec(client, { code: 1 });
      assert.equal(res.isError, true);
      assert.equal(res.content[0].text, 'exec: field "code" must be a string (got a number)');
    } finally {
      await client.close();
    }
  });

  test('cancelling a call aborts its run: its later side effect never happens', async () => {
    const client = await open(connect, true);
    const issue = async () =>
      result(await exec(client, { code: 'return (await tools.callValue("openclaw:github:github_list_issues", {state: "all"})).find((i) => i.number === 2).state' })).value;
    try {
      assert.equal(await issue(), 'open');
      const ac = new AbortController();
      const call = exec(
        client,
        { code: 'await tools.sleep_ms({ms: 1500}); await tools.callValue("openclaw:github:github_update_issue", {number: 2, patch: {state: "closed"}}); return "too late"' },
        { signal: ac.signal },
      );
      setTimeout(() => ac.abort(new Error('the user stopped it')), 300);
      await assert.rejects(call, /the user stopped it|abort/i);
      // Had the run gone on, it would have closed issue 2 by now.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(await issue(), 'open', 'the cancelled run went on and closed the issue');
    } finally {
      await client.close();
    }
  });

  test('a call with a progress token hears progress while its cell waits on a slow tool', async () => {
    const client = await open(connect, true);
    try {
      const seen = [];
      const res = await exec(client, { code: 'return (await tools.sleep_ms({ms: 1600})).slept' }, { onprogress: (p) => seen.push(p) });
      assert.equal(result(res).value, 1600);
      assert.ok(seen.length >= 1, 'no notifications/progress');
      assert.equal(seen[0].total, 30000);
      assert.match(seen[0].message, /openclaw:core:sleep_ms/);
    } finally {
      await client.close();
    }
  });

  test("two sessions cannot see each other's runs", async () => {
    const a = await open(connect);
    const b = await open(connect);
    try {
      const r = result(await exec(a, { code: 'await yield_control("check"); return "a resumed"' }));
      assert.equal(r.status, 'waiting');
      const res = await b.callTool({ name: 'wait', arguments: { runId: r.runId } });
      assert.equal(res.isError, true);
      assert.equal(result(res).code, 'invalid_input');
      assert.equal((await waitDone(a, r)).value, 'a resumed');
    } finally {
      await a.close();
      await b.close();
    }
  });
}
