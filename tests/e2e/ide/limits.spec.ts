// Limits as a person meets them: an endless loop ends as timeout while the page
// stays usable; the config panel's edits (checked by the core) reach the next run.
import { test, expect } from "./ide";

test("while(true){} ends as timeout while the page stays responsive", async ({ ide, page }) => {
  await ide.open();
  await ide.setConfig("{ timeoutMs: 2000 }");
  await ide.type("while (true) {}");
  await ide.run();
  await ide.expectStatus("running");
  // The core runs in a worker: the page's other controls work during the run.
  const html = page.locator("html");
  const before = await html.getAttribute("data-theme");
  await page.getByRole("button", { name: /Switch to (light|dark) theme/ }).click();
  await expect(html).not.toHaveAttribute("data-theme", before!);
  await ide.tab(/Runs/);
  await expect(page.getByRole("tabpanel")).toContainText("No suspended runs");
  await ide.expectStatus("failed", 60_000);
  await expect(ide.code).toHaveText("timeout");
  // And the next cell runs on the fresh core.
  await ide.type("return 7 * 6;");
  await ide.run();
  await ide.expectStatus("completed", 60_000);
  await expect(ide.value).toHaveText("42");
});

test("a config edit (timeoutMs: 500) takes effect on the next run", async ({ ide }) => {
  await ide.open();
  await ide.type('const r = await tools.sleep_ms({ ms: 3000 });\nreturn r;');
  await ide.page.getByRole("checkbox", { name: "Auto-resume" }).uncheck();
  await ide.run();
  await ide.expectStatus("completed", 60_000); // the default 10 s deadline outlasts the sleep
  await ide.setConfig("{ timeoutMs: 500 }");
  // (500 ms of deadline: the 3 s sleep cannot finish inside it)
  await ide.run();
  await ide.expectStatus("waiting", 60_000); // now the sleep outlasts the deadline
});

test("a config typed and run at once, before its check, applies to that run", async ({ ide, page }) => {
  await ide.open();
  await page.getByRole("checkbox", { name: "Auto-resume" }).uncheck();
  await ide.type('const r = await tools.sleep_ms({ ms: 3000 });\nreturn r;');
  // Type the config, then run straight away, inside the check's debounce: Run
  // checks the typed text first, so the 500 ms deadline is in force.
  await ide.tab("Config");
  await page.getByRole("textbox", { name: "Config (JSON5)" }).click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText("{ timeoutMs: 500 }");
  await ide.runButton.click();
  await ide.expectStatus("waiting", 60_000);
  await expect(page.getByTestId("config-status")).toHaveText(/Valid/);
});

test("an invalid config shows the core's error inline and the last valid one stays in force", async ({ ide, page }) => {
  await ide.open();
  await ide.setConfig("{ timeoutMs: 50 }", false);
  const st = page.getByTestId("config-status");
  await expect(st).toContainText("timeoutMs");
  await expect(st).toContainText("100");
  await ide.setConfig("{ timeoutMs: 1000, nope: 1 }", false);
  await expect(st).toContainText("nope");
  await ide.setConfig("{ timeoutMs: ", false);
  await expect(st).toContainText(/line|:\d+/);
  // Runs still work with the defaults.
  await ide.type("return 1;");
  await ide.run();
  await ide.expectStatus("completed");
});
