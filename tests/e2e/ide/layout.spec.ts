// The page at 900 px wide (a laptop with the browser in half the screen): the
// toolbar's controls, the result's error text and the Runs table's buttons all
// stay inside their boxes, and axe stays clean there.
import AxeBuilder from "@axe-core/playwright";
import { test, expect } from "./ide";
import type { Locator } from "@playwright/test";

/**
 * inside fails unless the element's box lies within the container's box. It
 * measures until both are laid out: the Runs table re-renders every second (age,
 * TTL), and a row caught mid-render has no box for that instant.
 */
async function inside(el: Locator, box: Locator, what: string) {
  await expect.poll(async () => {
    const a = await el.boundingBox(), b = await box.boundingBox();
    if (!a || !b) return "not laid out";
    if (a.x < b.x - 0.5) return `left edge ${a.x} < ${b.x}`;
    if (a.x + a.width > b.x + b.width + 0.5) return `right edge ${a.x + a.width} > ${b.x + b.width}`;
    return "inside";
  }, { message: what }).toBe("inside");
}

test.use({ viewport: { width: 900, height: 800 } });

test("at 900 px: toolbar, error text, Runs buttons fit; axe is clean", async ({ ide, page }) => {
  await ide.open();
  const toolbar = page.getByRole("toolbar", { name: "Cell actions" });
  for (const name of ["Run", "Stop", "Abort", "Share"]) {
    await inside(toolbar.getByRole("button", { name, exact: name !== "Run" }).first(), toolbar, `toolbar ${name}`);
  }
  await inside(page.locator("#run-status"), toolbar, "run status");
  const topbar = page.locator("header.topbar");
  await inside(page.getByRole("button", { name: /Switch to (light|dark) theme/ }), topbar, "theme toggle");
  expect((await topbar.boundingBox())!.width, "the page does not scroll sideways").toBeLessThanOrEqual(900);

  // A failure with a long message: the text wraps inside the result, readable.
  await ide.type('throw new Error("a long message that a person has to read in full: " + "words ".repeat(40));');
  await ide.run();
  await ide.expectStatus("failed");
  const err = ide.error;
  const result = page.locator("section.result");
  await inside(err, result, "error text");
  expect((await err.boundingBox())!.width, "error text width").toBeGreaterThan(300);

  // A suspended run in the Runs table: both buttons inside the panel.
  await page.getByRole("checkbox", { name: "Auto-resume" }).uncheck();
  await ide.setConfig("{ timeoutMs: 300 }");
  await ide.type("return await tools.sleep_ms({ ms: 20000 });");
  await ide.run();
  await ide.expectStatus("waiting");
  await ide.tab(/Runs/);
  const panel = page.getByRole("tabpanel");
  const row = panel.getByTestId("run-row");
  await expect(row).toHaveCount(1);
  await inside(row.getByRole("button", { name: /^Resume run/ }), panel, "Runs: Resume");
  await inside(row.getByRole("button", { name: /^Abort run/ }), panel, "Runs: Abort");

  const res = await new AxeBuilder({ page }).analyze();
  const bad = res.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(" | ")}`)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath("900px.png"), fullPage: true });
});
