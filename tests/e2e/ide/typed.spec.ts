// Typed help from the catalog's declarations (the same tools/index.d.ts and
// mcp/*.d.ts a guest reads through API), served by the TypeScript language
// service in its own worker: completion, hover and a type error, all through
// the editor as a person uses it.
import { test, expect, type IDE } from "./ide";
import type { Page } from "@playwright/test";

/** typesReady: the language service starts once the person is in the editor. */
async function typesReady(ide: IDE, page: Page) {
  await expect(page.locator("#types-status")).toHaveText("types: when you edit");
  await ide.editor.click();
  await expect(page.locator("#types-status")).toHaveText("types: ready", { timeout: 90_000 });
}

test("completion after tools. and MCP.everything. lists the catalog's tools", async ({ ide, page }) => {
  await ide.open();
  await typesReady(ide, page);
  await ide.type("const r = await tools.");
  const popup = page.locator(".cm-tooltip-autocomplete");
  await expect(popup).toBeVisible();
  await expect(popup.getByRole("option", { name: /sleep_ms/ })).toBeVisible();
  await expect(popup.getByRole("option", { name: /github_list_issues/ })).toBeVisible();
  // The popup's icons are drawn (a function's icon is not an empty box).
  const icon = popup.locator(".cm-completionIcon-function").first();
  await expect(icon).toBeVisible();
  expect((await icon.boundingBox())!.width).toBeGreaterThan(4);
  await page.keyboard.press("Escape");
  await ide.type("await MCP.everything.");
  await expect(popup.getByRole("option", { name: /^echo/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await ide.type("await Issues.");
  await expect(popup.getByRole("option", { name: /^list/ })).toBeVisible();
});

test("hover shows a tool's signature and description", async ({ ide, page }) => {
  await ide.open();
  await typesReady(ide, page);
  await ide.type("await tools.sleep_ms({ ms: 5 });");
  // The mouse rests on "sleep_ms": columns 12-19, measured by the keyword
  // "await" (columns 0-4, its own highlighted span) in the monospace font.
  const kw = (await page.locator(".cm-line span", { hasText: /^await$/ }).first().boundingBox())!;
  const col = kw.width / 5;
  await page.mouse.move(kw.x + col * 15, kw.y + kw.height / 2, { steps: 4 });
  const tip = page.getByTestId("hover");
  await expect(tip).toContainText("sleep_ms(input: { ms: number; }): Promise<{ slept: number; }>");
  await expect(tip).toContainText("Wait for ms milliseconds");
});

test("a TypeScript cell calling a tool with a wrong argument type is underlined before Run", async ({ ide, page }) => {
  await ide.open();
  await typesReady(ide, page);
  await ide.language("TypeScript");
  await ide.type('const r = await tools.sleep_ms({ ms: "soon" });\nreturn r.slept;');
  const mark = page.locator(".cm-lintRange-error");
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveText('ms');
  await mark.hover();
  await expect(page.locator(".cm-tooltip-lint")).toContainText("Type 'string' is not assignable to type 'number'");
  // Top-level return and await are fine in a cell, and a correct call is clean.
  await ide.type("const r = await tools.sleep_ms({ ms: 5 });\nreturn r.slept;");
  await expect(mark).toHaveCount(0);
  await ide.run();
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText("5");
});
