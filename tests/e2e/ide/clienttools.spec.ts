// The page's client tools, driven as a person: the prompt appears in the page,
// the person's own click opens the file chooser, the cell gets the file.
import { test, expect } from "./ide";

const pick = `try {
  const f = await tools.select_file({ prompt: "Pick the notes" });
  return { name: f.name, size: f.size, type: f.type, text: f.text, truncated: f.truncated };
} catch (e) {
  return "caught: " + e.message;
}`;

test("select_file: the prompt's Choose file opens the chooser and the cell receives the file", async ({ ide, page }) => {
  await ide.open();
  await ide.type(pick);
  await ide.run();
  const prompt = page.getByRole("group", { name: "The program asks for a file" });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("Pick the notes");
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    prompt.getByRole("button", { name: "Choose file" }).click(),
  ]);
  await chooser.setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("line one\nline two\n") });
  await ide.expectStatus("completed");
  await expect(ide.value).toContainText('"name": "notes.txt"');
  await expect(ide.value).toContainText('"size": 18');
  await expect(ide.value).toContainText("line one\\nline two\\n");
  await expect(ide.value).toContainText('"truncated": false');
  await expect(prompt).toHaveCount(0);
});

test("select_file: Cancel is an error the cell can catch", async ({ ide, page }) => {
  await ide.open();
  await ide.type(pick);
  await ide.run();
  const prompt = page.getByRole("group", { name: "The program asks for a file" });
  await prompt.getByRole("button", { name: "Cancel" }).click();
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText(/caught: .*cancelled/);
});

test("select_file: the run waits while the person chooses and auto-resume finishes it", async ({ ide, page }) => {
  await ide.open();
  await ide.setConfig("{ timeoutMs: 4000 }");
  await ide.type(pick);
  await ide.run();
  // The exec deadline passes while the prompt is open: the run is suspended.
  await ide.expectStatus("waiting", 60_000);
  await expect(page.getByTestId("waiting")).toContainText("client:ide:select_file");
  await expect(page.getByTestId("waiting")).toContainText("waiting for you");
  const prompt = page.getByRole("group", { name: "The program asks for a file" });
  const [chooser] = await Promise.all([
    page.waitForEvent("filechooser"),
    prompt.getByRole("button", { name: "Choose file" }).click(),
  ]);
  await chooser.setFiles({ name: "late.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") });
  await ide.expectStatus("completed");
  await expect(ide.value).toContainText('"name": "late.csv"');
});

test("ask_user answers through the page and notify shows a toast", async ({ ide, page }) => {
  await ide.open();
  await ide.type(`const { answer } = await tools.ask_user({ question: "Name of the report?" });
await tools.notify({ message: "Report " + answer + " is ready", level: "success" });
return answer;`);
  await ide.run();
  const field = page.getByRole("textbox", { name: "Name of the report?" });
  await expect(field).toBeFocused();
  await page.keyboard.insertText("Q3 freight");
  await page.keyboard.press("Enter");
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText('"Q3 freight"');
  await expect(page.getByTestId("toast")).toContainText("Report Q3 freight is ready");
});

test("ask_user: Decline is a catchable error", async ({ ide, page }) => {
  await ide.open();
  await ide.type(`try { await tools.ask_user({ question: "Proceed?" }); return "answered"; } catch (e) { return "declined: " + e.message; }`);
  await ide.run();
  await page.getByRole("group", { name: "The program asks a question" }).getByRole("button", { name: "Decline" }).click();
  await expect(ide.value).toHaveText(/declined: .*declined/);
});
