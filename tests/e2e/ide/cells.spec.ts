// Cells as a person runs them: type, Ctrl+Enter, read the result panel.
import { test, expect } from "./ide";

test("a JavaScript cell typed and run with Ctrl+Enter shows its value", async ({ ide }) => {
  await ide.open();
  await ide.type('text("hello");\njson({ n: 1 });\nreturn { sum: 20 + 22, list: [1, 2, 3] };');
  await ide.run();
  await ide.expectStatus("completed");
  await expect(ide.value).toContainText('"sum": 42');
  // Output in call order: the text item first, then the json item.
  const items = ide.output.locator("li");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveText("hello");
  await expect(items.nth(1)).toContainText('"n": 1');
  await expect(ide.page.getByTestId("telemetry")).toBeAttached();
});

test("a TypeScript cell runs after the JS/TS switch (as JavaScript it is a SyntaxError)", async ({ ide }) => {
  await ide.open();
  const code = "interface P { x: number }\nconst p: P = { x: 2 };\nreturn (p.x as number) * 21;";
  await ide.type(code);
  await ide.run();
  await ide.expectStatus("failed");
  await expect(ide.error).toContainText("SyntaxError");
  await ide.language("TypeScript");
  await ide.runButton.click();
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText("42");
});

test("the shipments example finds shipping_list with its declared output hint", async ({ ide }) => {
  await ide.open();
  await ide.page.getByRole("button", { name: /Shipments filter/ }).click();
  await ide.runButton.click();
  await ide.expectStatus("completed");
  await expect(ide.output.locator("li").first()).toContainText("shipping_list");
  await expect(ide.output.locator("li").first()).toContainText("-> Array<");
  await expect(ide.output).toContainText("6 shipments");
  await expect(ide.value).toContainText("SH-1002");
  await expect(ide.value).not.toContainText("SH-1004"); // paid
});

test("output over maxOutputBytes ends as output_limit_exceeded", async ({ ide }) => {
  await ide.open();
  await ide.type('for (let i = 0; i < 2000; i++) text("x".repeat(100));\nreturn "unreachable";');
  await ide.run();
  await ide.expectStatus("failed");
  await expect(ide.code).toHaveText("output_limit_exceeded");
});

test("a reload keeps the history of cells; a history entry loads back into the editor", async ({ ide, page }) => {
  await ide.open();
  await ide.type('return "first cell";');
  await ide.run();
  await ide.expectStatus("completed");
  await ide.type('return "second cell";');
  await ide.run();
  await expect(ide.value).toHaveText('"second cell"');
  await page.reload();
  await ide.ready();
  const items = page.getByTestId("history-item");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('return "second cell";');
  await expect(items.nth(0)).toContainText("completed");
  await items.nth(1).click();
  await expect(ide.editor).toHaveText('return "first cell";');
  await ide.runButton.click();
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText('"first cell"');
});
