// oddsmith serve: builds each system's form from /api/systems (the key
// descriptors), keeps the page's state in the query string (the quick
// command's flags), and asks /api/evaluate as the user types. Every text
// from the user or the server goes in as text (textContent), except the
// table and the charts, which the server renders and escapes.
"use strict";

const EXAMPLES = {
  cortex: { pool: "d10 2d8 d6", vs: "2d6" },
  scene: { pool: "d10 2d8 d6", doom: "2d6", actions: "4" },
  conflict: { hero: "d10 2d8 d6", foe: "d10 d8" },
  storytelling: { dice: "5" },
  advantage: { die: "d8", stat: "1", rolls: "6" },
  balance: { pools: "d10 2d8 d6", target: "0.6" },
};
const VIEWS = ["exactly", "at-least", "at-most"];
const SHOWS = ["table", "chart"];
const DEBOUNCE_MS = 250;

const state = { forms: null, cmd: "cortex", view: "exactly", show: "table", last: null, timer: null, seq: 0 };
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children) node.append(child);
  return node;
}

function formOf(cmd) {
  return state.forms.systems.find((s) => s.cmd === cmd);
}

function field(f, value) {
  const id = "f-" + f.name;
  const input = f.name === "method"
    ? el("select", { id, name: f.name }, ...f.choices.map((c) => el("option", { value: c }, c)))
    : el("input", {
        id, name: f.name, type: "text", inputmode: f.kind === "int" || f.kind === "float" ? "decimal" : null,
        placeholder: f.default !== null ? f.default : (f.required ? "required" : "none"),
        list: f.choices.length ? id + "-choices" : null, spellcheck: "false",
        "aria-describedby": "h-" + f.name + " e-" + f.name,
      });
  input.value = value || (f.name === "method" ? f.default : "");
  input.addEventListener("input", schedule);
  input.addEventListener("change", schedule);
  const parts = [
    el("label", { for: id }, el("code", {}, f.label)),
    input,
  ];
  if (f.choices.length && f.name !== "method") {
    parts.push(el("datalist", { id: id + "-choices" }, ...f.choices.map((c) => el("option", { value: c }))));
  }
  let help = f.help + " [" + f.allowed + "; default: " + (f.default !== null ? f.default : (f.required ? "required" : "none")) + "]";
  if (f.lists) help += "; a comma list compares";
  parts.push(el("p", { class: "help", id: "h-" + f.name }, help));
  parts.push(el("p", { class: "error", id: "e-" + f.name, role: "alert" }));
  return el("div", { class: "field", "data-field": f.name }, ...parts);
}

function buildNav() {
  const nav = $("systems");
  nav.replaceChildren(...state.forms.systems.map((s) => {
    const b = el("button", { type: "button", "data-cmd": s.cmd, title: s.title }, s.cmd);
    b.addEventListener("click", () => {
      if (s.cmd === state.cmd) return;
      state.cmd = s.cmd;
      buildForm(null);
      pressed();
      evaluateNow();
    });
    return b;
  }));
}

// The form of the current system: values from the query string, else the
// system's example (a fresh page answers something at once). The keys that
// name a case come first; the general balance's fields and the rules fold.
function buildForm(params) {
  const sys = formOf(state.cmd);
  $("title").textContent = sys.title;
  const given = (name) => (params ? params.getAll(name).join(",") : "");
  const example = params && [...params.keys()].some((k) => k !== "cmd" && k !== "view" && k !== "show") ? {} : EXAMPLES[state.cmd] || {};
  const fieldOf = (f) => field(f, given(f.name) || example[f.name] || "");
  const fold = (id, title, fields) => {
    const d = el("details", { id }, el("summary", {}, title + " (" + fields.length + ")"), ...fields.map(fieldOf));
    if (fields.some((f) => given(f.name))) d.open = true;
    return d;
  };
  const general = sys.fields.filter((f) => f.group === "general");
  const rules = sys.fields.filter((f) => !f.main && f.group !== "general");
  const parts = sys.fields.filter((f) => f.main).map(fieldOf);
  if (general.length) parts.push(fold("general", "Any system: --system, --key, --metric", general));
  if (rules.length) parts.push(fold("rules", sys.system_keys ? "Cortex roll rules" : "Rules", rules));
  $("form").replaceChildren(...parts);
  if (sys.system_keys) {
    systemKeys(params);
    $("f-system").addEventListener("input", () => systemKeys(null));
  }
  const kept = {};
  for (const f of state.forms.settings) {
    const old = $("f-" + f.name);
    kept[f.name] = old ? old.value : "";
  }
  const settings = state.forms.settings.filter((f) => sys.settings.includes(f.name));
  $("settings").replaceChildren(...settings.map((f) => field(f, given(f.name) || kept[f.name])));
  if (settings.some((f) => given(f.name))) $("more").open = true;
  $("more-title").textContent = sys.settings.length > 3 ? "Method, trials, seed and table layout" : "Method, trials and seed";
  $("views").hidden = sys.system_keys;
  $("hint").hidden = sys.system_keys;
}

// The balance's general form: once a system is named, that system's keys
// (from its own form) are fields, as `--pool`, `--dice` ...; the values
// typed there are kept while the system stays.
function systemKeys(params) {
  const sys = formOf(state.cmd);
  const chosen = $("f-system").value.trim();
  const other = state.forms.systems.find((s) => s.system === chosen);
  const old = $("system-keys");
  const kept = {};
  if (old) {
    for (const input of old.querySelectorAll("[name]")) kept[input.name] = input.value;
    if (old.dataset.system === chosen) return;
  }
  if (!other) {
    if (old) old.remove();
    return;
  }
  const taken = new Set(sys.fields.map((f) => f.name).concat(sys.settings));
  const fields = other.fields
    .filter((f) => !taken.has(f.name))
    .map((f) => Object.assign({}, f, { label: f.flag, positional: false, lists: false, required: false }));
  const given = (name) => (params ? params.getAll(name).join(",") : "") || kept[name] || "";
  const d = el("details", { id: "system-keys", "data-system": chosen },
    el("summary", {}, "Keys of " + chosen + " (" + fields.length + ")"), ...fields.map((f) => field(f, given(f.name))));
  d.open = true;
  if (old) old.replaceWith(d); else $("general").after(d);
}

function pressed() {
  for (const b of document.querySelectorAll("[data-cmd]")) b.setAttribute("aria-pressed", String(b.dataset.cmd === state.cmd));
  for (const b of document.querySelectorAll("[data-view]")) b.setAttribute("aria-pressed", String(b.dataset.view === state.view));
  for (const b of document.querySelectorAll("[data-show]")) b.setAttribute("aria-pressed", String(b.dataset.show === state.show));
}

// The query string of the page: the command, every field that is filled
// in (an empty field takes its default), then the view and display.
function currentQuery() {
  const q = new URLSearchParams();
  q.set("cmd", state.cmd);
  for (const input of document.querySelectorAll("#form [name], #settings [name]")) {
    const value = input.value.trim();
    if (value === "" || (input.name === "method" && value === "auto")) continue;
    q.append(input.name, value);
  }
  if (state.view !== "exactly" && !formOf(state.cmd).system_keys) q.set("view", state.view);
  if (state.show !== "table") q.set("show", state.show);
  return q;
}

function schedule() {
  clearTimeout(state.timer);
  state.timer = setTimeout(evaluateNow, DEBOUNCE_MS);
}

function clearErrors() {
  for (const p of document.querySelectorAll(".error")) p.textContent = "";
  for (const i of document.querySelectorAll("[aria-invalid]")) i.removeAttribute("aria-invalid");
}

function say(text, bad) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("bad", !!bad);
}

async function evaluateNow() {
  clearTimeout(state.timer);
  const q = currentQuery();
  history.replaceState(null, "", "?" + q.toString());
  const seq = ++state.seq;
  say("Computing…");
  let response, body;
  try {
    response = await fetch("/api/evaluate?" + q.toString());
    body = await response.json();
  } catch (e) {
    if (seq === state.seq) say("The server did not answer; the last result is kept.", true);
    return;
  }
  if (seq !== state.seq) return; // a newer question is on its way
  clearErrors();
  if (!response.ok) {
    // The previous result stays; the message goes beside its field.
    const message = body && body.error ? body.error : "the server answered " + response.status;
    const where = body && body.field ? $("e-" + body.field) : null;
    if (where) {
      where.textContent = message;
      const input = $("f-" + body.field);
      if (input) input.setAttribute("aria-invalid", "true");
      const fold = where.closest("details");
      if (fold) fold.open = true;
      say("Not computed: see the message beside " + (body.field === "cmd" ? "the system" : "the field") + ". The last result is kept.", true);
    } else {
      say(message + (response.status === 503 ? "" : " The last result is kept."), true);
    }
    if (response.status === 503) schedule();
    return;
  }
  state.last = body;
  say("");
  render();
}

function render() {
  const b = state.last;
  if (!b) return;
  $("command").textContent = b.command;
  const link = "?" + currentQuery().toString();
  $("share").setAttribute("href", link);
  $("method").textContent = "Method: " + b.methods.join(" and ");
  // The table is the Markdown output's cells, rendered and escaped by the server.
  $("table").innerHTML = b.table;
  for (const code of document.querySelectorAll("#table td:first-child > code")) {
    const words = b.words[code.textContent];
    if (words) code.after(el("span", { class: "words" }, words));
  }
  // The distributions in the chosen view: the report's own `--view`
  // grids, rendered and escaped by the server.
  $("distributions").innerHTML = b.distributions[state.view] || "";
  // The charts are the chart module's SVG, drawn on the server.
  $("charts").replaceChildren();
  for (const c of b.charts) {
    const figure = el("figure", { "aria-label": c.title });
    figure.innerHTML = c.svg;
    $("charts").append(figure);
  }
  if (!b.charts.length) $("charts").append(el("p", {}, "This result has no chart."));
  const table = state.show === "table";
  $("table").hidden = !table;
  $("distributions").hidden = !table;
  $("charts").hidden = table;
  const dl = [["csv", "CSV"], ["json", "JSON"], ["md", "Markdown"], ["toml", "scenario TOML"]].map(([k, w]) =>
    el("a", { href: "/api/download/" + k + "?" + b.query, download: "" }, w));
  for (const c of b.charts) {
    for (const k of ["png", "svg"]) {
      dl.push(el("a", { href: "/api/download/" + k + "?" + b.query + "&chart=" + encodeURIComponent(c.stem), download: "" }, c.stem + "." + k));
    }
  }
  $("downloads").replaceChildren("Download: ", ...dl);
}

async function init() {
  const response = await fetch("/api/systems");
  state.forms = await response.json();
  const params = new URLSearchParams(location.search);
  if (formOf(params.get("cmd"))) state.cmd = params.get("cmd");
  if (VIEWS.includes(params.get("view"))) state.view = params.get("view");
  if (SHOWS.includes(params.get("show"))) state.show = params.get("show");
  buildNav();
  buildForm(params);
  pressed();
  for (const b of document.querySelectorAll("[data-view]")) {
    // The view is `--view`: the command line and the downloads follow it.
    b.addEventListener("click", () => { state.view = b.dataset.view; pressed(); render(); evaluateNow(); });
  }
  for (const b of document.querySelectorAll("[data-show]")) {
    b.addEventListener("click", () => { state.show = b.dataset.show; pressed(); history.replaceState(null, "", "?" + currentQuery()); render(); });
  }
  evaluateNow();
}

document.addEventListener("DOMContentLoaded", init);
