// The catalog browser, the surface and the trajectory as a person opens them.
import { test, expect } from "./ide";

test("the catalog shows shipping_list with its hints, describe on click, and the MCP .d.ts", async ({ ide, page }) => {
  await ide.open();
  await ide.tab("Catalog");
  const entry = page.locator('[data-testid="catalog-entry"][data-id="openclaw:shipping:shipping_list"]');
  await expect(entry).toBeVisible({ timeout: 60_000 });
  await expect(entry).toContainText("Array<{ id: string; paid: boolean; tons: number }>");
  await entry.click();
  await expect(entry).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("group", { name: "shipping_list output schema" })).toBeVisible();
  // Client tools are untrusted: input unknown in ALL_TOOLS, schema through describe.
  const sel = page.locator('[data-testid="catalog-entry"][data-id="client:ide:select_file"]');
  await expect(sel).toContainText("unknown -> ?");
  await sel.click();
  await expect(page.getByRole("group", { name: "select_file parameters" })).toContainText("accept");
  // API files rendered as code: tools/index.d.ts and the MCP server's declarations.
  await expect(page.getByTestId("api-file").filter({ hasText: "tools/index.d.ts" })).toBeVisible();
  const mcp = page.getByTestId("api-file").filter({ hasText: "mcp/everything.d.ts" });
  await mcp.locator("summary").click();
  await expect(mcp.getByRole("textbox", { name: "mcp/everything.d.ts" })).toContainText("echo");
  // Namespaces with the prompt the model sees.
  await expect(page.getByRole("list", { name: "visible namespaces" })).toContainText("Issues");
  await expect(page.getByLabel("namespace prompts the model sees")).toContainText("Issues");
});

test("the surface switches between plain, Anthropic and both OpenAI shapes", async ({ ide, page }) => {
  await ide.open();
  await ide.tab("Surface");
  const panel = page.getByRole("tabpanel");
  await expect(panel).toContainText('"input_schema"', { timeout: 60_000 });
  await page.getByRole("radio", { name: "openai", exact: true }).check();
  await expect(panel).toContainText('"function"');
  await page.getByRole("radio", { name: "openai-responses" }).check();
  await expect(panel).toContainText('"strict"');
  await page.getByRole("radio", { name: "anthropic" }).check();
  await expect(panel).toContainText('"input_schema"');
  await expect(panel).toContainText("exec");
  await expect(panel).toContainText("wait");
});

test("the trajectory lists the nested calls under their exec and downloads as JSON", async ({ ide, page }) => {
  await ide.open();
  await ide.type(`const s = await tools.shipping_list({});
const e = await tools.echo({ message: "hi" });
await tools.notify({ message: "traj" });
return [s.length, e];`);
  await ide.run();
  await ide.expectStatus("completed");
  await ide.tab("Trajectory");
  const exec = page.getByTestId("traj-exec").first();
  await expect(exec).toContainText("3 nested");
  const calls = exec.getByTestId("nested-call");
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(0)).toContainText("openclaw:shipping:shipping_list");
  await expect(calls.nth(1)).toContainText("openclaw:core:echo");
  await expect(calls.nth(2)).toContainText("client:ide:notify");
  await expect(calls.nth(0)).toContainText("ok");
  await calls.nth(2).locator("summary").first().click();
  await expect(calls.nth(2)).toContainText('"message": "traj"');
  const [dl] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
  const body = JSON.parse(await (await dl.createReadStream()).toArray().then((b) => Buffer.concat(b).toString()));
  expect(body.calls[0].kind).toBe("exec");
  expect(body.calls[0].nested.map((c: { toolId: string }) => c.toolId)).toEqual([
    "openclaw:shipping:shipping_list", "openclaw:core:echo", "client:ide:notify",
  ]);
});

test("the Issues namespace and MCP examples run", async ({ ide, page }) => {
  await ide.open();
  await page.getByRole("button", { name: /Issues namespace/ }).click();
  await ide.runButton.click();
  await ide.expectStatus("completed");
  await expect(ide.value).toContainText('"count": 2');
  await page.getByRole("button", { name: /MCP via API.read/ }).click();
  await ide.runButton.click();
  await ide.expectStatus("completed");
  await expect(ide.output).toContainText("mcp/everything.d.ts");
  await expect(ide.value).toContainText("hello from the IDE");
});
