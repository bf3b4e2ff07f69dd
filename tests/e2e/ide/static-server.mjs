// A plain static file server for build/web on another origin than the API:
// the IDE's "static files against a server URL set in the page" mode. It has no
// /healthz and no API, so the page starts without a server until the person
// sets one. Node's standard library only; 127.0.0.1 only.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";

const [port, dir = "build/web"] = process.argv.slice(2);
const root = resolve(dir);
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm", ".json": "application/json", ".ts": "text/plain; charset=utf-8" };

createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
  if (!file.startsWith(root + "/") || req.method !== "GET") return res.writeHead(404).end("not found");
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end("not found");
  }
}).listen(Number(port), "127.0.0.1", () => console.log(`static ${root} on http://127.0.0.1:${port}`));
