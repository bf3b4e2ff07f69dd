// Example cells, from the spec's own examples (its "Vorgehen des Modells", the
// namespace and MCP sections) plus the page's client tools.
export const examples = [
  {
    id: "shipments",
    title: "Shipments filter",
    note: "tools.search + a declared output hint",
    language: "javascript",
    code: `// shipping_list declares its output (ALL_TOOLS shows "-> Array<{ id; paid; tons }>"),
// so the program can filter on fields it knows exist.
const [t] = await tools.search("list shipments");
text(\`\${t.id}: \${t.input} -> \${t.output}\`);
const s = await tools.callValue(t.id, {});
text(\`\${s.length} shipments\`);
return s.filter((x) => !x.paid && x.tons > 10);
`,
  },
  {
    id: "issues",
    title: "Issues namespace",
    note: "a plugin namespace: Issues.list",
    language: "javascript",
    code: `// Plugin namespaces are globals and also namespaces.<Name>.
const open = await Issues.list({ state: "open" });
const alsoOpen = await namespaces.Issues.list({ state: "open" });
return { count: open.length, alsoCount: alsoOpen.length, titles: open.map((i) => i.title) };
`,
  },
  {
    id: "mcp",
    title: "MCP via API.read",
    note: "declarations, then MCP.<server>.<tool>()",
    language: "javascript",
    code: `// MCP tools are not in ALL_TOOLS: read their declarations, then call them.
const files = await API.list("mcp");
text(files.map((f) => f.path).join("\\n"));
const server = Object.keys(MCP)[0];
if (!server) return "no MCP server is connected (set a server URL)";
const dts = await API.read(\`mcp/\${server}.d.ts\`);
text(dts.split("\\n").slice(0, 12).join("\\n"));
return await MCP[server].echo({ message: "hello from the IDE" });
`,
  },
  {
    id: "slow",
    title: "Slow tool suspends",
    note: "waiting, then wait resumes",
    language: "javascript",
    code: `// sleep_ms outlasts the exec deadline (timeoutMs, 10 s by default): the run is
// suspended and the result is "waiting". Resume (or auto-resume) calls wait.
text("asking the server to sleep for 12 s");
const r = await tools.sleep_ms({ ms: 12000 });
return r;
`,
  },
  {
    id: "yield",
    title: "yield_control",
    note: "the program pauses itself",
    language: "javascript",
    code: `text("step 1: gathered the inputs");
await yield_control("checkpoint before the expensive part");
text("step 2: resumed by wait");
return "done";
`,
  },
  {
    id: "typescript",
    title: "TypeScript cell",
    note: "the editor checks types; the run strips them",
    language: "typescript",
    code: `interface Shipment { id: string; paid: boolean; tons: number }
const s = (await tools.shipping_list({})) as Shipment[];
const heavy: Shipment[] = s.filter((x) => x.tons > 10);
return heavy.map((x): string => \`\${x.id} (\${x.tons} t)\`);
`,
  },
  {
    id: "select-file",
    title: "Ask for a file",
    note: "client tool select_file",
    language: "javascript",
    code: `// select_file shows a prompt in the page; your click opens the file picker.
try {
  const f = await tools.select_file({ prompt: "Pick a text file to count its lines" });
  text(\`\${f.name}: \${f.size} bytes, \${f.type || "unknown type"}\`);
  return { name: f.name, lines: f.text.split("\\n").length, truncated: f.truncated };
} catch (e) {
  return \`no file: \${e.message}\`;
}
`,
  },
  {
    id: "ask-notify",
    title: "Ask and notify",
    note: "client tools ask_user + notify",
    language: "javascript",
    code: `const { answer } = await tools.ask_user({ question: "What should the report be called?" });
await tools.notify({ message: \`Report "\${answer}" is ready\`, level: "success" });
return answer;
`,
  },
  {
    id: "loop",
    title: "Endless loop",
    note: "ends as timeout; the page stays usable",
    language: "javascript",
    code: `// The worker running the core is stopped from outside at the deadline.
while (true) {}
`,
  },
];
