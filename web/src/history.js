// Cell history in localStorage: the last cells run, newest first, so a reload
// (or tomorrow) brings them back.
const KEY = "codemode.ide.history";
const MAX = 50;

/** loadHistory returns the saved cells [{code, language, at, status}], newest first. */
export function loadHistory() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v.filter((e) => e && typeof e.code === "string") : [];
  } catch {
    return [];
  }
}

/** pushHistory saves a cell (dropping an identical older one) and returns the list. */
export function pushHistory(entry) {
  const list = loadHistory().filter((e) => !(e.code === entry.code && e.language === entry.language));
  list.unshift({ ...entry, at: Date.now() });
  list.length = Math.min(list.length, MAX);
  save(list);
  return list;
}

/** updateHistory sets the status of the newest entry (after its run ended). */
export function updateHistory(status) {
  const list = loadHistory();
  if (list[0]) { list[0].status = status; save(list); }
  return list;
}

export function clearHistory() { save([]); return []; }

function save(list) {
  try { localStorage.setItem(KEY, JSON.stringify(list)); } catch { /* storage full or disabled: history is a convenience */ }
}
