// Suspended runs: a slow server tool makes the run `waiting`; Resume (or
// auto-resume) calls wait; the run inspector lists the run with age and TTL.
import { test, expect } from "./ide";

const slow = 'text("before");\nconst r = await tools.sleep_ms({ ms: 6000 });\ntext("after");\nreturn r;';

test("a slow server tool makes the run waiting; the inspector lists it; Resume completes it", async ({ ide, page }) => {
  await ide.open();
  await page.getByRole("checkbox", { name: "Auto-resume" }).uncheck();
  await ide.setConfig("{ timeoutMs: 4000, snapshotTtlSeconds: 600 }");
  await ide.type(slow);
  await ide.run();
  await ide.expectStatus("waiting", 60_000);
  const waiting = page.getByTestId("waiting");
  await expect(waiting).toContainText("openclaw:core:sleep_ms");
  await expect(ide.output).toContainText("before");
  await ide.tab(/Runs/);
  const row = page.getByTestId("run-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("pending_tools");
  await expect(row).toContainText(/\d+(\.\d)? s|ms/); // age
  await expect(row).toContainText(/(9\.\d|10) min|5\d\d\.\d s|\d+ min/); // TTL left of 600 s
  await page.getByTestId("resume").click();
  await ide.expectStatus("completed", 60_000);
  await expect(ide.value).toContainText('"slept"');
  // Each exec/wait result carries the output of that call: "before" came with the exec.
  await expect(ide.output.locator("li")).toHaveText(["after"]);
  await expect(row).toHaveCount(0);
});

test("auto-resume finishes a suspended run without a click", async ({ ide, page }) => {
  await ide.open();
  await expect(page.getByRole("checkbox", { name: "Auto-resume" })).toBeChecked();
  await ide.setConfig("{ timeoutMs: 4000 }");
  await ide.type(slow);
  await ide.run();
  await ide.expectStatus("completed", 60_000);
  await expect(ide.value).toContainText('"slept"');
  // The trajectory shows the exec that suspended and the wait that finished it.
  await ide.tab("Trajectory");
  await expect(page.getByTestId("traj-exec")).toHaveCount(1);
  await expect(page.getByTestId("traj-wait").first()).toBeVisible();
});

test("yield_control suspends with reason yield; Resume continues the program", async ({ ide, page }) => {
  await ide.open();
  await page.getByRole("checkbox", { name: "Auto-resume" }).uncheck();
  await page.getByRole("button", { name: /yield_control/ }).click();
  await ide.runButton.click();
  await ide.expectStatus("waiting");
  await expect(page.getByTestId("waiting")).toContainText("yielded control");
  await page.getByTestId("resume").click();
  await ide.expectStatus("completed");
  await expect(ide.value).toHaveText('"done"');
  await expect(ide.output).toContainText("step 2: resumed by wait");
});
