// @ts-check
// Table sounds as short tones made with Web Audio (no sound files), a mute switch saved in
// this browser, and the page title that tells a player in another tab that a table needs them.
// Nothing here waits: a sound is scheduled and the game goes on.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { app, recordSound, toggleMuted } from "./state.js";

// Each sound: [frequency in Hz, seconds] notes played one after another.
const TONES = {
  turn: [[660, 0.12], [880, 0.18]],
  warning: [[988, 0.09], [0, 0.05], [988, 0.09], [0, 0.05], [988, 0.09]],
  deal: [[1400, 0.03]],
  check: [[320, 0.06]],
  bet: [[520, 0.05], [390, 0.07]],
  win: [[523, 0.1], [659, 0.1], [784, 0.22]],
};

let context = null;

export function playSound(name) {
  const notes = TONES[name];
  if (!notes || app.muted) return;
  recordSound(name);
  try {
    context ??= new AudioContext();
    if (context.state === "suspended") context.resume().catch(() => {});
    let at = context.currentTime;
    for (const [frequency, seconds] of notes) {
      if (frequency) {
        const oscillator = context.createOscillator();
        const gain = context.createGain();
        oscillator.type = "sine";
        oscillator.frequency.value = frequency;
        gain.gain.setValueAtTime(0.12, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
        oscillator.connect(gain).connect(context.destination);
        oscillator.start(at);
        oscillator.stop(at + seconds);
      }
      at += seconds;
    }
  } catch { /* no audio here: the game goes on without sound */ }
}

export function renderMute() {
  const button = $("#mute");
  button.setAttribute("aria-pressed", String(app.muted));
  button.textContent = app.muted ? t("sound.off") : t("sound.on");
  button.title = app.muted ? t("sound.unmute_title") : t("sound.mute_title");
}

export function bindMute() {
  $("#mute").addEventListener("click", () => {
    toggleMuted();
    renderMute();
  });
  renderMute();
}

const TITLE = "pokerroom";

// The page title: the table whose clock is at its warning first, then any table where it is
// the player's turn, then the table on screen, else the room's name.
export function updateTitle() {
  const views = [...app.tables.values()];
  const hurry = views.find((v) => v.yourTurn && v.warned);
  const turn = views.find((v) => v.yourTurn);
  // Else the table on screen names the tab (a watcher's too).
  const watched = document.getElementById("tables")?.hidden ? null : app.tables.get(app.active);
  if (hurry) document.title = `\u23F0 ${t("title.hurry", { table: hurry.shortName() })} \u00b7 ${TITLE}`;
  else if (turn) document.title = `\u25B6 ${t("title.turn", { table: turn.shortName() })} \u00b7 ${TITLE}`;
  else if (watched?.state) document.title = `${watched.tableName()} \u00b7 ${TITLE}`;
  else document.title = TITLE;
}
