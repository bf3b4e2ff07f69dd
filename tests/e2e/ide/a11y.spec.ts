// Accessibility: axe finds no serious or critical violations in either theme,
// and a cell can be written, run and read with the keyboard alone.
import AxeBuilder from "@axe-core/playwright";
import { test, expect } from "./ide";

for (const theme of ["dark", "light"] as const) {
  test(`axe: no serious violations in the ${theme} theme (result, catalog, config shown)`, async ({ ide, page }) => {
    await ide.open();
    const toggle = page.getByRole("button", { name: /Switch to (light|dark) theme/ });
    if ((await page.locator("html").getAttribute("data-theme")) !== theme) await toggle.click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await ide.type('text("out");\nreturn { a: [1, 2], b: "x" };');
    await ide.run();
    await ide.expectStatus("completed");
    for (const tab of ["Trajectory", "Catalog", "Config"]) {
      await ide.tab(tab);
      if (tab === "Catalog") await expect(page.getByTestId("catalog-entry").first()).toBeVisible({ timeout: 60_000 });
      const res = await new AxeBuilder({ page }).analyze();
      const bad = res.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(bad.map((v) => `${v.id}: ${v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " " + (n.failureSummary ?? "").slice(0, 160)).join(" | ")}`), `${theme} / ${tab}`).toEqual([]);
    }
  });
}

test("keyboard only: skip link to the editor, type, Ctrl+Enter, tabs by arrow keys", async ({ ide, page }) => {
  await ide.open();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to the editor" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(ide.editor).toBeFocused();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText("return 'keys';");
  await page.keyboard.press("Control+Enter");
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText('"keys"');
  await page.getByRole("tab", { name: "Trajectory" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: /Runs/ })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Config" })).toHaveAttribute("aria-selected", "true");
});
