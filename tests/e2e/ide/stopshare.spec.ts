// Stop and Share through the page's own controls.
import { test, expect, ideURL } from "./ide";

test("Stop ends a busy cell, says so, and the next cell runs", async ({ ide, page }) => {
  await ide.open();
  // The core is ready, so the cell runs at once; the deadline would say
  // "exceeded timeoutMs", Stop says "stopped by the host". (How fast Stop is,
  // is a figure of ./build.sh bench-typed: a few hundred ms.)
  const stop = page.getByRole("button", { name: "Stop", exact: true });
  await expect(stop).toBeDisabled();
  await ide.type("while (true) {}");
  await ide.run();
  await ide.expectStatus("running");
  await expect(stop).toBeEnabled();
  await page.waitForTimeout(500); // the worker is inside the loop
  await stop.click();
  await ide.expectStatus("failed", 20_000);
  await expect(ide.error).toContainText("stopped by the host");
  await expect(ide.code).toHaveCount(0); // not a timeout
  await expect(stop).toBeDisabled();
  await ide.type("return 6 * 7;");
  await ide.run();
  await ide.expectStatus("completed", 60_000);
  await expect(ide.value).toHaveText("42");
});

test("Stop while a new core is still starting for the cell ends it before it runs", async ({ ide, page }) => {
  await ide.open();
  await ide.setConfig("{ timeoutMs: 60000 }"); // a new config: the next run starts a new core
  await ide.type("while (true) {}");
  await ide.run();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await ide.expectStatus("failed", 30_000);
  await expect(ide.error).toContainText("stopped by the host");
  await ide.type("return 1 + 1;");
  await ide.run();
  await ide.expectStatus("completed", 60_000);
  await expect(ide.value).toHaveText("2");
});

test("Share puts the cell into the #fragment; opening the link restores code and language", async ({ ide, page, context }) => {
  await ide.open();
  await ide.language("TypeScript");
  const code = 'const n: number = 2;\nreturn `größe ${n * 21}`;';
  await ide.type(code);
  await page.getByRole("button", { name: "Share" }).click();
  await expect(page).toHaveURL(/#cell=/);
  const link = page.url();
  expect(new URL(link).search).toBe(""); // nothing of the cell in what a server sees
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole("textbox", { name: "Cell code" })).toHaveText(code.replace("\n", ""));
  await expect(other.getByRole("radio", { name: "TypeScript" })).toBeChecked();
  await expect(other.locator("#engine-status")).toHaveText(/core: ready/, { timeout: 90_000 });
  await other.getByRole("button", { name: "Run", exact: true }).click();
  await expect(other.getByTestId("result-value")).toHaveText('"größe 42"', { timeout: 60_000 });
  // A cut-short link says so and leaves the editor usable.
  const broken = await context.newPage();
  await broken.goto(ideURL + "/#cell=eyJjb2Rl");
  await expect(broken.getByTestId("toast")).toContainText("could not be read");
});

test("a busy cell's timeout message matches how long it ran", async ({ ide, page }) => {
  await ide.open();
  await ide.setConfig("{ timeoutMs: 3000 }");
  await ide.type("while (true) {}");
  const t0 = Date.now();
  await ide.run();
  await ide.expectStatus("failed", 60_000);
  const ran = Date.now() - t0;
  await expect(ide.code).toHaveText("timeout");
  // The deadline starts inside the worker, after the click: a message that
  // says the deadline passed must not come sooner.
  await expect(ide.error).toContainText("exceeded timeoutMs (3000 ms)");
  expect(ran).toBeGreaterThanOrEqual(3000);
});
