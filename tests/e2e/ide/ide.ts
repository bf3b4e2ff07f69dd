// Shared steps of the IDE suite. Every user action goes through the page's own
// controls (keyboard, clicks, the file chooser); page.evaluate is never used to
// act for the person, because it runs with a user gesture a person would not have.
import { test as base, expect as baseExpect, type Page, type Locator } from "@playwright/test";

// A page starts its own core (a 31 MB wasm compiled in a worker) and CI machines
// are shared: waits are generous, and every assertion still has to come true.
export const expect = baseExpect.configure({ timeout: 20_000 });

/** ideURL is `codemode serve` with the IDE at / (playwright.config.ts starts it). */
export const ideURL = `http://127.0.0.1:${process.env.CODEMODE_E2E_IDE_PORT}`;
/** staticURL is a plain static copy of build/web on another origin, without an API. */
export const staticURL = `http://127.0.0.1:${process.env.CODEMODE_E2E_STATIC_PORT}`;

/** IDE is the page as a person sees it. */
export class IDE {
  constructor(readonly page: Page) {}

  get status(): Locator { return this.page.getByTestId("result-status"); }
  get value(): Locator { return this.page.getByTestId("result-value"); }
  get output(): Locator { return this.page.getByTestId("result-output"); }
  get error(): Locator { return this.page.getByTestId("result-error"); }
  get code(): Locator { return this.page.getByTestId("result-code"); }
  get runButton(): Locator { return this.page.getByRole("button", { name: "Run", exact: true }); }
  get editor(): Locator { return this.page.getByRole("textbox", { name: "Cell code" }); }

  /** open loads the IDE and waits until the core in the page has started. */
  async open(url = ideURL + "/") {
    await this.page.goto(url);
    await this.ready();
  }

  async ready() {
    await expect(this.page.locator("#engine-status")).toHaveText(/core: ready/, { timeout: 90_000 });
  }

  /** type replaces the cell with code, as a person pasting it into the editor. */
  async type(code: string) {
    await this.editor.click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("Delete");
    await this.page.keyboard.insertText(code);
  }

  /** run presses Ctrl+Enter in the editor. */
  async run() {
    await this.editor.click();
    await this.page.keyboard.press("Control+Enter");
  }

  async language(name: "JavaScript" | "TypeScript") {
    await this.page.getByRole("radio", { name }).check();
  }

  async expectStatus(status: string, timeout = 60_000) {
    await expect(this.status).toHaveText(status, { timeout });
  }

  async tab(name: RegExp | string) {
    await this.page.getByRole("tab", { name }).click();
  }

  /** setConfig types a JSON5 config into the Config tab and waits for the core's verdict. */
  async setConfig(text: string, valid = true) {
    await this.tab("Config");
    const ed = this.page.getByRole("textbox", { name: "Config (JSON5)" });
    await ed.click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.press("Delete");
    await this.page.keyboard.insertText(text);
    const st = this.page.getByTestId("config-status");
    if (valid) await expect(st).toHaveText(/Valid/, { timeout: 60_000 });
    else await expect(st).toHaveAttribute("data-invalid", "true", { timeout: 60_000 });
  }
}

export const test = base.extend<{ ide: IDE }>({
  ide: async ({ page }, use, testInfo) => {
    // Each test starts a core in a fresh page (a 31 MB wasm compile) and some
    // wait for deadlines on purpose: give them room on a loaded CI machine.
    testInfo.setTimeout(Math.max(testInfo.timeout, 150_000));
    await use(new IDE(page));
  },
});
