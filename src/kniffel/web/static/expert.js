// Hints and reviews: the expert's words and numbers, shown.

import { notice, showPanel } from "./dialogs.js?b=__BUILD__";
import { drawReviewChances } from "./chanceplot.js?b=__BUILD__";
import { $, focusSel, h } from "./dom.js?b=__BUILD__";
import { ask, askExpert } from "./engine.js?b=__BUILD__";
import { miniDice } from "./faces.js?b=__BUILD__";
import { drawSheet } from "./sheet.js?b=__BUILD__";
import { redraw, state, timing } from "./state.js?b=__BUILD__";
import { dec, minus, percent, refusal, tr } from "./words.js?b=__BUILD__";

// Hints and reviews come from the engine's expert (kniffel.engine.expert, in the worker): every choice
// with its expected final score, every decision with its loss. The page only shows them. A hint
// never holds the controls: the player may roll on while the expert thinks, and a hint that
// arrives for another moment of the game is dropped.

// The expert's status for the rule set on the start screen (from meta.json): {ready, note}.
export function expertStatus(s) {
  const presets = state.meta ? state.meta.presets : [];
  const preset = presets.find((p) => p.name === s.rules);
  const key = `${s.rules}${preset && preset.free_strike_option && s.free_strike ? "/free" : ""}`;
  return state.meta && state.meta.expert ? state.meta.expert[key] ?? null : null;
}

export function expertReady(s) {
  const st = expertStatus(s);
  return !st || st.ready;
}

// A dice game on the screen gets the expert of its rule set ready, once per session and rule set:
// in the expert's engine (for hints), and when the expert plays in it, in the game's engine too
// (its first move is then quick). The expert's tables are too large for the memory snapshot.
const warmed = new Set();
let coachUsed = false;
export function coachInUse() { coachUsed = true; }

export function warmExpert(cur) {
  const view = cur.view;
  if (view.mode !== "dice" && coachUsed) warmTurn(cur); // the coach's hints on the score pad
  if (view.mode !== "dice" || view.over) return;
  const key = `${view.rules.name}${view.rules.free_strike ? "/free" : ""}`;
  const request = { op: "warm_expert", rules: view.rules.name, free_strike: view.rules.free_strike };
  if (!warmed.has(`expert ${key}`)) {
    warmed.add(`expert ${key}`);
    // with the game, so the turn a hint is asked for next is computed already
    askExpert({ ...request, game: cur.game }).then((reply) => {
      (timing.expertWarm ??= {})[key] = reply.ok ? Math.round(performance.now()) : reply.error.code;
    });
  }
  if (!warmed.has(`engine ${key}`) && view.players.some((p) => p.kind === "computer" && isExpert(p.strategy))) {
    warmed.add(`engine ${key}`);
    ask(request);
  }
  warmTurn(cur);
}

// The computer players that read the expert's values (the expert, and the expert playing to win).
export const isExpert = (strategy) => strategy === "expert" || strategy === "expert-win";

// In a game of several players each turn's chances to win are computed in the expert's engine
// at the turn's start (the engine's warm_turn), so that the hint with both answers, asked after
// a throw of that turn, comes from its memory at once. A computer's turn needs no hint.
let warmedTurn = null;
export function warmTurn(cur) {
  const view = cur.view;
  if (view.over || view.players.length < 2 || view.current === null) return;
  if (view.players[view.current].kind === "computer") return;
  const key = `${cur.id}/${view.round}/${view.current}`;
  if (warmedTurn === key) return;
  warmedTurn = key;
  const t0 = performance.now();
  askExpert({ op: "warm_turn", game: cur.game }).then((reply) => {
    timing.lastWarmTurnMs = reply.ok ? Math.round(performance.now() - t0) : reply.error.code;
    timing.warmTurns = (timing.warmTurns ?? 0) + 1;
  });
}

// One of a hint's two answers: "Für den Sieg: 6 6 6 behalten (Ø 239,8 · 38 %)".
export function answerText(code, o) {
  return tr(code, { choice: tr(o.text), expected: dec(o.expected), win: percent(o.win) });
}

// Whether a hint shows both answers: playing to win asks for another choice, one whose chance
// reads higher (two equal percentages are no second answer to a reader).
export function twoAnswers(data) {
  const w = data && data.win;
  return Boolean(w && w.differ && percent(w.points.win) !== percent(w.win.win));
}

// The hint of this moment of the game in progress, if one was asked for.
export function currentHint(view) {
  const hint = state.hint;
  return hint && state.current && hint.id === state.current.id && hint.actions === view.actions ? hint : null;
}

// How long a hint may take before the screen shows that the engine is thinking: a hint from the
// turn's warmed memory comes sooner, and is drawn once (a screen of four columns takes tens of
// milliseconds to draw, twice for a "thinking" box shown for a moment).
const HINT_PATIENCE_MS = 120;

export async function askHint() {
  const cur = state.current;
  if (!state.ready || !cur) return;
  const mark = { id: cur.id, actions: cur.view.actions };
  const asked = currentHint(cur.view);
  if (asked && asked.loading) return; // asked already, the answer on its way
  state.hint = { ...mark, loading: true };
  const slow = setTimeout(() => { if (state.hint && state.hint.loading) redraw(); }, HINT_PATIENCE_MS);
  const t0 = performance.now();
  const reply = await askExpert({ op: "hint", game: cur.game });
  clearTimeout(slow);
  timing.lastHintMs = performance.now() - t0;
  const now = state.current;
  if (!now || now.id !== mark.id || now.view.actions !== mark.actions) return; // the game went on
  if (!reply.ok) {
    state.hint = null;
    notice(refusal(reply.error), "warn");
  } else {
    state.hint = { ...mark, data: reply.hint };
  }
  redraw();
  if (state.hint) focusSel("#hint-best");
}

export function drawHintBox(view, hint, live) {
  const box = h("div", { class: "hint-box", id: "hint-box", role: "status", "aria-live": "polite" });
  if (hint.loading) {
    box.append(h("span", { class: "hint" }, tr("web.hint.thinking")), h("progress", { class: "thinking" }));
    return box;
  }
  const best = hint.data.options[0];
  const keepButton = (id, o, words) => h("button", { type: "button", id, class: "small", disabled: !live,
    onclick: () => { state.keep = new Set(o.keep); redraw(); focusSel("#roll"); } }, tr(words));
  const tools = h("span", { class: "tip-tools" });
  box.append(h("span", { class: "tip-badge", "aria-hidden": "true" }, tr("web.hint.suggested")));
  if (twoAnswers(hint.data)) {
    // playing to win asks for another choice: both, each with its average and its chance
    const w = hint.data.win;
    box.classList.add("two");
    box.append(h("span", { class: "tip-text", id: "hint-best", tabindex: "-1" },
      h("span", { class: "tip-answer", id: "hint-points" }, answerText("page.hint.for_points", w.points)),
      h("strong", { class: "tip-answer", id: "hint-win" }, answerText("page.hint.for_win", w.win))));
    if (w.points.keep && w.points.keep.length) tools.append(keepButton("hint-keep", w.points, "web.hint.keep_points"));
    if (w.win.keep && w.win.keep.length) tools.append(keepButton("hint-keep-win", w.win, "web.hint.keep_win"));
  } else {
    box.append(h("span", { class: "tip-text", id: "hint-best", tabindex: "-1" }, h("strong", {}, tr(best.text)), " · ",
      h("span", { class: "tip-expected" }, tr(hint.data.expected_text))));
    if (best.keep && best.keep.length) tools.append(keepButton("hint-keep", best, "web.hint.keep_these"));
  }
  tools.append(h("button", { type: "button", id: "hint-all", class: "small",
    onclick: () => showHintTable(view, hint.data) }, tr("web.hint.all")));
  box.append(tools);
  return box;
}

// Every choice of the hint, best first, with its expected final score and its loss, and in a
// game of several players its chance to win.
function showHintTable(view, data) {
  showHintPanel(data, "hint-source", "hint-table");
}

// The panel of every choice of a hint (the dice game's, the coach's: the ids of its source line
// and its table).
export function showHintPanel(data, sourceId, tableId) {
  const win = Boolean(data.win);
  const rows = data.options.map((o, i) => h("tr", { class: i === 0 ? "best" : "", "data-kind": o.kind },
    h("td", {}, tr(o.text)), h("td", { class: "num" }, dec(o.expected)),
    h("td", { class: "num" }, i === 0 ? "" : dec(o.loss, 2)),
    win ? h("td", { class: "num" }, percent(o.win)) : null));
  showPanel(tr(data.title),
    h("p", { class: "hint", id: sourceId }, tr(data.source_text), " ", tr("web.hint.explain"),
      win ? ` ${tr(data.win.source_text)}` : ""),
    h("div", { class: "table-wrap", tabindex: "0" }, h("table", { class: "hint-table", id: tableId },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, tr("web.hint.col_choice")),
        h("th", { scope: "col", class: "num" }, tr("web.hint.col_expected")),
        h("th", { scope: "col", class: "num" }, tr("web.hint.col_loss")),
        win ? h("th", { scope: "col", class: "num" }, tr("web.hint.col_win")) : null)),
      h("tbody", {}, rows))));
  $("panel").classList.add("wide");
}

// --- the review of a finished game -----------------------------------------------------------
export async function openReview(game, title, from) {
  if (!state.ready) return;
  const review = { game, title, from, loading: true, data: null, player: null };
  state.review = review;
  state.screen = "review";
  redraw();
  focusSel("#review-back");
  const t0 = performance.now();
  const reply = await askExpert({ op: "review", game });
  timing.lastReviewMs = performance.now() - t0;
  if (state.review !== review) return;
  review.loading = false;
  if (!reply.ok) {
    notice(refusal(reply.error), "warn");
    closeReview();
    return;
  }
  review.data = reply.review;
  const players = reply.review.players;
  const human = players.find((p) => p.kind === "human" && p.count);
  review.player = (human ?? players.find((p) => p.count) ?? players[0]).player;
  if (state.screen === "review") redraw();
  if (players.length > 1) await reviewWins(review);
}

// The review's second part in a game of several players: every decision by its chance to win
// (it takes longer than the points, so the points are shown first).
async function reviewWins(review) {
  review.wins = { loading: true };
  if (state.screen === "review") redraw();
  const t0 = performance.now();
  const reply = await askExpert({ op: "review_wins", game: review.game });
  timing.lastReviewWinsMs = performance.now() - t0;
  if (state.review !== review) return;
  review.wins = reply.ok ? reply.wins : null;
  if (!reply.ok) notice(refusal(reply.error), "warn");
  if (state.screen === "review") redraw();
}

// A decision's chance to win in words, once the review's second part is here.
function winLine(review, d) {
  const w = review.wins && review.wins.decisions ? review.wins.decisions[String(d.index)] : null;
  return w ? h("span", { class: w.loss >= 0.0005 ? "win-cost lost" : "win-cost" }, tr(w.line)) : null;
}

function closeReview() {
  const from = state.review ? state.review.from : "game";
  state.review = null;
  state.screen = from === "history" ? "history" : state.current ? "game" : "setup";
  redraw();
}

// A decision's loss: "−2,96"; nothing for the best move, "0,00" for one just as good.
function lossText(d) {
  if (d.best_taken) return "";
  if (d.loss < 0.005) return dec(0, 2);
  return minus(d.loss, d.loss < 0.1 ? 2 : 1);
}

// "Taken: …", "Better: …" (or "That was the best move."), from the engine's words.
function decisionLines(d) {
  const [taken, better] = d.lines[state.lang] ?? d.lines.de;
  return [h("span", { class: "taken" }, taken), h("span", { class: d.best_taken ? "was-best" : "better" }, better)];
}

export function drawReview(review) {
  const wrap = h("section", { class: "review", id: "review-screen", "aria-labelledby": "review-title" });
  wrap.append(h("h2", { id: "review-title" }, tr("web.review.title"), review.title ? ` · ${review.title}` : ""));
  wrap.append(h("p", { class: "controls" }, h("button", { type: "button", id: "review-back", onclick: closeReview }, "← ", tr("web.review.back"))));
  if (review.loading) {
    wrap.setAttribute("aria-busy", "true");
    wrap.append(h("p", { class: "review-running", role: "status" }, h("progress", { class: "thinking" }), " ", tr("web.review.running")));
    return wrap;
  }
  const data = review.data;
  // whether the game's rule set has the d10 (its last die): the engine's presets say
  const rules = (state.meta ? state.meta.presets : []).find((r) => r.name === review.game.rules.name);
  const d10 = Boolean(rules && rules.d10);
  wrap.append(h("p", { class: "hint", id: "review-source" }, tr(data.source_text)));
  // everyone's win chances over the game, and each result split into decisions and luck
  const chances = drawReviewChances(data.chances, data.players.map((x) => x.name));
  if (chances) wrap.append(chances);
  if (data.players.length > 1) {
    wrap.append(h("div", { class: "controls review-players", role: "group" }, data.players.map((p) =>
      h("button", { type: "button", "data-review-player": p.player, "aria-pressed": p.player === review.player ? "true" : "false",
        onclick: () => { review.player = p.player; redraw(); focusSel(`[data-review-player="${p.player}"]`); } },
      p.name, " ", p.loss < 0.05 ? h("span", { class: "loss none" }, dec(0)) : h("span", { class: "loss" }, minus(p.loss))))));
  }
  const p = data.players.find((x) => x.player === review.player) ?? data.players[0];
  wrap.append(h("p", { class: "review-summary", id: "review-summary" }, tr(p.summary)));
  if (review.wins && review.wins.loading) {
    wrap.append(h("p", { class: "review-running", id: "review-wins-running", role: "status" },
      h("progress", { class: "thinking" }), " ", tr("web.review.win_running")));
  } else if (review.wins && review.wins.players) {
    const w = review.wins.players.find((x) => x.player === p.player);
    if (w) wrap.append(h("p", { class: "review-summary", id: "review-win-summary" }, tr(w.summary), " ",
      h("span", { class: "hint" }, tr(review.wins.source_text))));
  }
  const mine = data.decisions.filter((d) => d.player === p.player);
  if (p.costliest.length) {
    wrap.append(h("h3", {}, tr("web.review.costliest")));
    wrap.append(h("ol", { class: "costliest", id: "review-costliest" }, p.costliest.map((k) => {
      const d = data.decisions[k];
      return h("li", { "data-index": d.index },
        h("div", { class: "when" }, tr(d.when)),
        h("div", { class: "costly-main" }, miniDice(d.dice, d10), h("strong", { class: "loss" }, lossText(d))),
        ...decisionLines(d), winLine(review, d),
        h("button", { type: "button", class: "small", "data-moment": d.index, onclick: () => showMoment(review, d) }, tr("web.review.show")));
    })));
  }
  wrap.append(h("h3", {}, tr("web.review.all")));
  // one line per decision: when (opens the sheet of that moment), the dice, the loss; below it
  // what was taken and what was better
  wrap.append(h("ol", { class: "decisions", id: "review-list" }, mine.map((d) => h("li", {
    class: d.best_taken ? "best" : d.loss >= 0.05 ? "lost" : "", "data-index": d.index },
  h("div", { class: "dhead" },
    h("button", { type: "button", class: "link", "data-moment": d.index, onclick: () => showMoment(review, d) }, tr(d.when)),
    miniDice(d.dice, d10),
    h("span", { class: "sr" }, `${tr("web.review.col_loss")} ${dec(d.best_taken ? 0 : d.loss, 2)}`),
    h("span", { class: "loss", "aria-hidden": "true" }, lossText(d))),
  h("div", { class: "dlines" }, ...decisionLines(d), winLine(review, d))))));
  return wrap;
}

// The sheet as it was when the decision was made (the engine replays the game up to it).
async function showMoment(review, d) {
  const reply = await askExpert({ op: "moment", game: review.game, index: d.index });
  if (!reply.ok) { notice(refusal(reply.error), "warn"); return; }
  const view = { ...reply.view, options: [] };
  const sheet = drawSheet(view, false);
  for (const b of sheet.querySelectorAll("td button")) b.replaceWith(h("span", { class: "points" }, b.textContent));
  sheet.classList.add("moment-sheet");
  showPanel(`${view.columns[d.player].name} · ${tr(d.when)}`,
    h("div", { class: "moment-head" }, miniDice(d.dice, view.rules.d10), h("strong", { class: "loss" }, lossText(d))),
    h("p", { class: "moment-lines" }, ...decisionLines(d).flatMap((x) => [x, h("br")])),
    h("p", { class: "hint" }, (d.lines[state.lang] ?? d.lines.de)[2]),
    h("div", { class: "moment-wrap", id: "moment-sheet" }, sheet));
  $("panel").classList.add("wide");
}
