// The page's client tools (ids client:<app>:<name>): real ones that ask the
// person. Each shows a prompt card in the page; the person's own click is the
// user gesture a browser needs before it opens a file picker (a program that
// asks long after Run was clicked could not open one itself).
import { h } from "./dom.js";

/** TEXT_LIMIT bounds the text select_file hands to the program: 256 KiB of the file. */
export const TEXT_LIMIT = 256 * 1024;

/**
 * createClientTools returns the tool list for createCodeMode and a tracker of
 * calls in flight, so the IDE can resume a waiting run when the person answers.
 * promptsEl holds the prompt cards; toast(message, level) shows a notification.
 */
export function createClientTools({ promptsEl, toast, onCall }) {
  const inflight = new Map(); // callId -> {tool, runId, input, start, done: Promise}
  const listeners = new Set();

  // track wraps a tool's execute so the IDE sees each call: input, duration,
  // outcome, and when it settles.
  const track = (name, fn) => async (input, ctx = {}) => {
    const rec = { callId: ctx.callId, runId: ctx.runId, tool: name, input, start: performance.now() };
    let settle;
    rec.done = new Promise((r) => (settle = r));
    if (rec.callId) inflight.set(rec.callId, rec);
    onCall?.(rec);
    try {
      const out = await fn(input ?? {}, ctx);
      rec.outcome = "ok";
      return out;
    } catch (e) {
      rec.outcome = "error";
      rec.error = e?.message ?? String(e);
      throw e;
    } finally {
      rec.end = performance.now();
      inflight.delete(rec.callId);
      settle();
      for (const l of listeners) l(rec);
    }
  };

  const tools = [
    {
      name: "select_file",
      label: "Select a file",
      description: `Ask the person to choose a file in the page. Returns {name, type, size, text, truncated}: text is the first ${TEXT_LIMIT / 1024} KiB decoded as UTF-8 (truncated is true when the file is larger). Throws when the person cancels.`,
      parameters: {
        type: "object",
        properties: {
          prompt: { type: "string", description: "What the file is for, shown to the person." },
          accept: { type: "string", description: "File types the picker offers, e.g. \".txt,.csv\" or \"text/*\"." },
        },
        additionalProperties: false,
      },
      readOnly: true,
      execute: track("select_file", (input, ctx) => selectFile(promptsEl, input, ctx)),
    },
    {
      name: "ask_user",
      label: "Ask the person",
      description: "Ask the person a question in the page. Returns {answer: string}. Throws when the person declines.",
      parameters: {
        type: "object",
        properties: {
          question: { type: "string", description: "The question shown to the person." },
          placeholder: { type: "string" },
        },
        required: ["question"],
        additionalProperties: false,
      },
      readOnly: true,
      execute: track("ask_user", (input, ctx) => askUser(promptsEl, input, ctx)),
    },
    {
      name: "notify",
      label: "Notify the person",
      description: "Show the person a short notification (a toast). Returns {shown: true}.",
      parameters: {
        type: "object",
        properties: {
          message: { type: "string" },
          level: { type: "string", enum: ["info", "success", "warning", "error"] },
        },
        required: ["message"],
        additionalProperties: false,
      },
      readOnly: true,
      execute: track("notify", async (input) => {
        if (typeof input.message !== "string" || input.message === "") throw new TypeError("notify needs {message: string}");
        toast(input.message, input.level ?? "info");
        return { shown: true };
      }),
    },
  ];

  return {
    tools,
    /** pending reports whether callId is a client call still waiting for the person. */
    pending: (callId) => inflight.has(callId),
    /** whenSettled resolves once callId has settled (at once when it is not in flight). */
    whenSettled: (callId) => inflight.get(callId)?.done ?? Promise.resolve(),
    /** onSettle(fn) calls fn(record) after every client call; returns an unsubscribe. */
    onSettle(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    /** cancelAll dismisses every open prompt (the core was restarted). */
    cancelAll() { for (const el of promptsEl.querySelectorAll(".prompt")) el.dispatchEvent(new Event("dismiss")); },
  };
}

// promptCard renders one request and wires abort: when the run is aborted the
// card disappears and the call rejects.
function promptCard(promptsEl, { title, detail, body, actions, signal, onDismiss }) {
  const id = `prompt-${Math.random().toString(36).slice(2, 9)}`;
  const card = h("section.prompt", { "aria-labelledby": id, role: "group" },
    h("h3", { id }, title),
    detail ? h("p.prompt-detail", null, detail) : null,
    body,
    h("div.prompt-actions", null, actions));
  promptsEl.append(card);
  const remove = () => card.remove();
  signal?.addEventListener("abort", () => { remove(); onDismiss(new Error("the run was aborted")); }, { once: true });
  card.addEventListener("dismiss", () => { remove(); onDismiss(new Error("the core restarted; the request was dropped")); });
  return { card, remove };
}

function selectFile(promptsEl, input, { signal } = {}) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("the run was aborted"));
    const file = h("input", { type: "file", class: "visually-hidden", tabindex: "-1", "aria-hidden": "true" });
    if (typeof input.accept === "string") file.accept = input.accept;
    const choose = h("button.btn.primary", { type: "button" }, "Choose file");
    const cancel = h("button.btn", { type: "button" }, "Cancel");
    const { card, remove } = promptCard(promptsEl, {
      title: "The program asks for a file",
      detail: typeof input.prompt === "string" && input.prompt ? input.prompt : null,
      body: [file, h("p.muted.small", null, `The program receives the file's name, type, size and up to ${TEXT_LIMIT / 1024} KiB of its text.`)],
      actions: [choose, cancel],
      signal,
      onDismiss: reject,
    });
    // The person's click is the user gesture that lets the picker open.
    choose.addEventListener("click", () => file.click());
    cancel.addEventListener("click", () => { remove(); reject(new Error("the person cancelled the file selection")); });
    file.addEventListener("change", async () => {
      const f = file.files?.[0];
      if (!f) return;
      choose.disabled = cancel.disabled = true;
      try {
        const text = await f.slice(0, TEXT_LIMIT).text();
        remove();
        resolve({ name: f.name, type: f.type, size: f.size, text, truncated: f.size > TEXT_LIMIT });
      } catch (e) {
        remove();
        reject(new Error(`the file could not be read: ${e?.message ?? e}`));
      }
    });
    card.scrollIntoView({ block: "nearest" });
    choose.focus();
  });
}

function askUser(promptsEl, input, { signal } = {}) {
  return new Promise((resolve, reject) => {
    if (typeof input.question !== "string" || input.question === "") return reject(new TypeError("ask_user needs {question: string}"));
    if (signal?.aborted) return reject(new Error("the run was aborted"));
    const fieldId = `ask-${Math.random().toString(36).slice(2, 9)}`;
    const field = h("input.text", { id: fieldId, type: "text", placeholder: input.placeholder ?? "" });
    const send = h("button.btn.primary", { type: "button" }, "Answer");
    const decline = h("button.btn", { type: "button" }, "Decline");
    const form = h("form.prompt-form", null, h("label", { for: fieldId }, input.question), field);
    const { remove } = promptCard(promptsEl, {
      title: "The program asks a question",
      body: form,
      actions: [send, decline],
      signal,
      onDismiss: reject,
    });
    const submit = (e) => { e.preventDefault(); remove(); resolve({ answer: field.value }); };
    form.addEventListener("submit", submit);
    send.addEventListener("click", submit);
    decline.addEventListener("click", () => { remove(); reject(new Error("the person declined to answer")); });
    field.focus();
  });
}
