// The IDE as static files (build/web on another origin, no API there): it
// starts without server tools, and works against a server URL set in the page.
import { test, expect, ideURL, staticURL } from "./ide";

test("static files: client-only at first, then server tools after the person sets the server URL", async ({ ide, page }) => {
  await ide.open(staticURL + "/");
  await expect(page.locator("#server-status")).toHaveText(/no server/);
  await ide.type("return ALL_TOOLS.map((t) => t.id);");
  await ide.run();
  await ide.expectStatus("completed");
  await expect(ide.value).toContainText("client:ide:select_file");
  await expect(ide.value).not.toContainText("shipping_list");
  const url = page.getByRole("textbox", { name: "Server" });
  await url.fill(ideURL);
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.locator("#server-status")).toHaveText(/connected/);
  await ide.run();
  await ide.expectStatus("completed", 60_000);
  await expect(ide.value).toContainText("openclaw:shipping:shipping_list");
  // The URL is remembered for the next visit.
  await page.reload();
  await ide.ready();
  await expect(url).toHaveValue(ideURL);
});
