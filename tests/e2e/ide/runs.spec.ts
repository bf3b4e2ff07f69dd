// The Runs table ticks every second (age, TTL left) without rebuilding its
// rows: a person who tabbed to Resume keeps the focus there and Enter resumes.
import { test, expect } from "./ide";

test("the Runs table keeps the keyboard focus on Resume while its times tick; Enter resumes", async ({ ide, page }) => {
  await ide.open();
  await page.getByRole("checkbox", { name: "Auto-resume" }).uncheck();
  // The tool outlasts the exec (waiting) and has finished by the time of the
  // Enter below (one tick later), so one Resume completes the run.
  await ide.setConfig("{ timeoutMs: 2000 }");
  await ide.type("return await tools.sleep_ms({ ms: 2500 });");
  await ide.run();
  await ide.expectStatus("waiting");
  await ide.tab(/Runs/);
  const row = page.getByTestId("run-row");
  await expect(row).toHaveCount(1);
  const resume = row.getByRole("button", { name: /^Resume run/ });
  await resume.focus();
  await expect(resume).toBeFocused();
  const age = row.locator("td.age");
  const first = await age.textContent();
  await expect(age).not.toHaveText(first!, { timeout: 5_000 }); // at least one tick went by
  await expect(resume).toBeFocused();
  await page.keyboard.press("Enter");
  await ide.expectStatus("completed");
  await expect(ide.value).toContainText('"slept"');
  await expect(row).toHaveCount(0);
});
