// The coach for real dice on the score pad: "Tipp" for the typed dice (which throw they lie
// after, the expert's best choice and every option), and "Auswertung" of the pad game's entries.

import { notice, showPanel } from "./dialogs.js?b=__BUILD__";
import { $, focusSel, h } from "./dom.js?b=__BUILD__";
import { askExpert } from "./engine.js?b=__BUILD__";
import { answerText, coachInUse, showHintPanel, twoAnswers, warmTurn } from "./expert.js?b=__BUILD__";
import { miniDice } from "./faces.js?b=__BUILD__";
import { redraw, state, timing } from "./state.js?b=__BUILD__";
import { saveUi } from "./storage.js?b=__BUILD__";
import { count, dec, minus, num, refusal, tr } from "./words.js?b=__BUILD__";

// The expert computes in its own engine (engine.js): the page sends the pad game's save, the
// typed dice and the throw; the engine answers the dice game's hint for them. Nothing is
// decided here. A tip that arrives for another moment (the game went on, other dice, another
// throw) is dropped.

let tip = null; // {id, actions, dice, throw, loading, data}

const moment = () => ({ id: state.current && state.current.id, actions: state.current && state.current.view.actions });
const same = (a, b) => a && b && a.id === b.id && a.actions === b.actions;
const diceKey = (dice) => dice.join(" ");

// The throws the selector offers and the throw the typed dice lie after are the engine's
// (pad_choices: the turn's last throw for its first dice, the next throw for other dice typed
// after them); the player may pick another one, kept with the dice.
const throws = () => (state.padDice ? state.padDice.throws : []);

export function padThrow() {
  return state.padDice ? state.padDice.throw : null;
}

// The tip for the dice on the bar now, if one was asked for.
export function currentTip() {
  const dice = state.padDice ? diceKey(state.padDice.dice) : null;
  return tip && same(tip, moment()) && tip.dice === dice && tip.throw === padThrow() ? tip : null;
}

// The expert of a pad game's rule set gets ready when dice are first typed (once per rule set),
// so the first tip answers soon.
const warmed = new Set();
export function warmCoach(view) {
  const key = `${view.rules.name}${view.rules.free_strike ? "/free" : ""}`;
  if (warmed.has(key)) return;
  warmed.add(key);
  askExpert({ op: "warm_expert", rules: view.rules.name, free_strike: view.rules.free_strike }).then((reply) => {
    (timing.coachWarm ??= {})[key] = reply.ok ? Math.round(performance.now()) : reply.error.code;
  });
  // from now on each turn's chances to win are computed at its start (a game of several players)
  coachInUse();
  if (state.current) warmTurn(state.current);
}

async function askTip() {
  const cur = state.current;
  if (!state.ready || !cur || !state.padDice) return;
  const asked = { ...moment(), dice: diceKey(state.padDice.dice), throw: padThrow() };
  tip = { ...asked, loading: true };
  redraw();
  const t0 = performance.now();
  const reply = await askExpert({ op: "pad_hint", game: cur.game, dice: state.padDice.dice, rolls_used: asked.throw });
  timing.lastPadHintMs = performance.now() - t0;
  if (tip === null || tip.dice !== asked.dice || tip.throw !== asked.throw || !same(tip, moment())) return;
  if (!reply.ok) {
    tip = null;
    notice(refusal(reply.error), "warn");
  } else {
    tip = { ...asked, data: reply.hint };
  }
  redraw();
  if (tip) focusSel("#pad-tip-best");
}

// The best box of the tip (for marking it among the typed dice's boxes), or null.
export function tipBox() {
  const t = currentTip();
  const best = t && t.data ? t.data.options[0] : null;
  return best && best.box ? best.box : null;
}

// The coach's line under the typed dice's boxes: which throw it is, and "Tipp" or the tip.
export function drawCoach(view, live) {
  const row = h("div", { class: "coach-row", id: "pad-coach" });
  const select = h("select", { id: "pad-throw", disabled: !live,
    onchange: (e) => { state.padDice = { ...state.padDice, throw: Number(e.target.value) }; saveUi(); redraw(); } },
  throws().map((n) => h("option", { value: n, selected: n === padThrow() },
    tr(n > view.rules.rolls ? "page.coach.throw_chip" : `page.coach.throw_${n}`))));
  row.append(h("label", { class: "coach-throw" }, h("span", {}, tr("page.coach.throw")), " ", select));
  const t = currentTip();
  if (t && t.loading) {
    row.append(h("span", { class: "hint coach-thinking", role: "status" }, tr("web.hint.thinking")));
  } else if (t && t.data) {
    // the best choice and its expected final score (in a game of several players where playing
    // to win asks for another choice: both, each with its chance to win); a tap shows every choice
    const best = t.data.options[0];
    const said = twoAnswers(t.data)
      ? [h("span", { class: "tip-answer", id: "pad-tip-points" }, answerText("page.hint.for_points", t.data.win.points)),
        h("strong", { class: "tip-answer", id: "pad-tip-win" }, answerText("page.hint.for_win", t.data.win.win))]
      : [h("strong", {}, tr(best.text)), " · ", h("span", { class: "tip-expected" }, tr(t.data.expected_text))];
    row.append(h("button", { type: "button", class: twoAnswers(t.data) ? "coach-tip two" : "coach-tip", id: "pad-tip-best",
      "aria-haspopup": "dialog", title: tr("web.hint.all"), onclick: () => showHintPanel(t.data, "pad-tip-source", "pad-tip-table") },
    h("span", { class: "tip-badge" }, tr("page.coach.tip")), " ", ...said, " ›"));
  } else {
    row.append(h("button", { type: "button", id: "pad-tip", class: "small", disabled: !live,
      "aria-label": tr("page.coach.tip_label"), title: tr("page.coach.tip_label"), onclick: () => askTip() }, tr("page.coach.tip")));
  }
  return row;
}

// --- the review of the pad game's entries ------------------------------------------------------

// The button that opens the review (the pad's menu during the game, the result bar after it).
export function padReviewButton(id, onclick = null) {
  return h("button", { type: "button", id, disabled: !state.ready,
    onclick: onclick ?? (() => openPadReview()) }, tr("page.coach.review"));
}

// An entry's loss: "−2,96"; nothing for the best box.
function lossText(e) {
  if (e.best_taken) return "";
  return minus(e.loss, e.loss < 0.1 ? 2 : 1);
}

// The review of the pad game ``game`` (the one in progress by default; one of the history's
// too), whose rule set has the d10 where ``d10``.
export async function openPadReview(game = state.current && state.current.game, d10 = state.current && state.current.view.rules.d10) {
  if (!state.ready || !game) return;
  showPanel(tr("page.coach.review_title"),
    h("p", { class: "review-running", role: "status", id: "pad-review-running" }, h("progress", { class: "thinking" }), " ", tr("page.coach.review_running")));
  const t0 = performance.now();
  const reply = await askExpert({ op: "pad_review", game });
  timing.lastPadReviewMs = performance.now() - t0;
  if (!$("panel").open || !$("pad-review-running")) return; // closed, or something else shown meanwhile
  if (!reply.ok) {
    $("panel").close();
    notice(refusal(reply.error), "warn");
    return;
  }
  showPanel(tr("page.coach.review_title"), drawPadReview(Boolean(d10), reply.review));
  $("panel").classList.add("wide");
}

function drawPadReview(d10, data) {
  const out = [h("p", { class: "hint" }, tr("page.coach.review_explain"))];
  if (data.entries.length) out.push(h("p", { class: "hint", id: "pad-review-source" }, tr(data.source_text)));
  out.push(h("ul", { class: "coach-summary", id: "pad-review-summary" }, data.players.filter((p) => p.count).map((p) =>
    h("li", { "data-player": p.player }, count("page.coach.summary", p.count, { name: p.name, points: dec(p.loss) })))));
  if (!data.entries.length) out.push(h("p", { id: "pad-review-none" }, tr("page.coach.review_none")));
  const names = data.players.map((p) => p.name);
  out.push(h("ol", { class: "decisions", id: "pad-review-list" }, data.entries.map((e) => {
    const [taken, better, expected] = e.lines[state.lang] ?? e.lines.de;
    return h("li", { class: e.best_taken ? "best" : e.loss >= 0.05 ? "lost" : "", "data-index": e.index, "data-player": e.player },
      h("div", { class: "dhead" },
        h("span", { class: "when" }, `${names[e.player]} · ${tr("page.coach.round", { round: num(e.round) })}`),
        miniDice(e.dice, d10),
        h("span", { class: "sr" }, `${tr("web.review.col_loss")} ${dec(e.best_taken ? 0 : e.loss, 2)}`),
        h("span", { class: "loss", "aria-hidden": "true" }, lossText(e))),
      h("div", { class: "dlines" }, h("span", { class: "taken" }, taken),
        h("span", { class: e.best_taken ? "was-best" : "better" }, better),
        h("span", { class: "hint" }, expected)));
  })));
  if (data.not_judged) {
    out.push(h("p", { class: "hint", id: "pad-review-not-judged", "data-count": data.not_judged },
      count("page.coach.not_judged", data.not_judged, { dice: num(data.without_dice), values: num(data.without_values) })));
  }
  return out;
}
