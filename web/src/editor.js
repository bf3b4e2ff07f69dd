// CodeMirror 6 (pinned in package.json, bundled by web/build): the cell editor,
// the config editor and read-only code views, all following the page theme.
import { EditorView, basicSetup } from "codemirror";
import { EditorState, Compartment, Prec } from "@codemirror/state";
import { keymap, lineNumbers } from "@codemirror/view";
import { javascript } from "@codemirror/lang-javascript";
import { oneDark } from "@codemirror/theme-one-dark";
import { syntaxHighlighting, defaultHighlightStyle, HighlightStyle } from "@codemirror/language";
import { tags } from "@lezer/highlight";

const views = new Set(); // every view, so a theme switch reaches all of them
let dark = true;

const lightTheme = EditorView.theme({
  "&": { backgroundColor: "var(--bg-editor)", color: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--bg-editor)", color: "var(--fg-muted)", border: "none" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "var(--bg-active-line)" },
}, { dark: false });

const baseTheme = EditorView.theme({
  "&": { height: "100%", fontSize: "13.5px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  "&.cm-focused": { outline: "none" },
});

// One Dark with its three low-contrast colours lifted to WCAG AA (4.5:1 on
// the editor and its active line; axe checks it): keywords, the red family
// (names, properties) and comments.
const darkFixes = [Prec.highest(EditorView.theme({ ".cm-gutters": { color: "#9aa5b8" } }, { dark: true })), Prec.highest(syntaxHighlighting(HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword], color: "#d085e6" },
  { tag: [tags.name, tags.deleted, tags.character, tags.propertyName, tags.macroName], color: "#f08a93" },
  { tag: tags.comment, color: "#9aa5b8", fontStyle: "italic" },
])))];

function themeExt() {
  return dark ? [oneDark, darkFixes] : [lightTheme, syntaxHighlighting(defaultHighlightStyle)];
}

function langExt(language) {
  return javascript({ typescript: language === "typescript" });
}

/** setDark switches every editor and code view between one-dark and light. */
export function setDark(on) {
  dark = on;
  for (const v of views) v.dispatch({ effects: v.cmTheme.reconfigure(themeExt()) });
}

/**
 * createEditor mounts the cell editor. onRun fires on Ctrl/Cmd+Enter (ahead of
 * basicSetup's own Mod-Enter binding); onChange gets the new text.
 */
export function createEditor(parent, { doc, language, onRun, onChange, label, wrap = false }) {
  const lang = new Compartment(), theme = new Compartment(), typed = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun(); return true; } }])),
        basicSetup,
        lang.of(langExt(language)),
        typed.of([]), // typed help (typed.js) once the language service is up
        theme.of(themeExt()),
        baseTheme,
        wrap ? EditorView.lineWrapping : [],
        EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((u) => { if (u.docChanged && onChange) onChange(u.state.doc.toString()); }),
      ],
    }),
  });
  view.cmTheme = theme;
  views.add(view);
  return {
    view,
    typed,
    get text() { return view.state.doc.toString(); },
    set text(s) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: s } }); },
    setLanguage(l) { view.dispatch({ effects: lang.reconfigure(langExt(l)) }); },
    focus() { view.focus(); },
  };
}

/** codeView renders read-only source (an API .d.ts file, a schema) with highlighting. */
export function codeView(parent, text, { language = "typescript", label } = {}) {
  const theme = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        EditorState.readOnly.of(true),
        EditorView.editable.of(false),
        langExt(language),
        theme.of(themeExt()),
        baseTheme,
        EditorView.contentAttributes.of({ "aria-label": label || "code", tabindex: "0" }),
      ],
    }),
  });
  view.cmTheme = theme;
  views.add(view);
  return view;
}

/** dropView forgets a view that left the page (so theme switches skip it). */
export function dropView(view) {
  views.delete(view);
  view.destroy();
}
