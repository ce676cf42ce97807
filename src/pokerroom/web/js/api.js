// The room's REST API: requests with the session's token, the account, downloads.

import { $, el, showToast } from "./dom.js";
import { money } from "./format.js";
import { show } from "./nav.js";
import { app } from "./state.js";

export async function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (app.token) headers.Authorization = `Bearer ${app.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method: options.method || (options.body !== undefined ? "POST" : "GET"),
    headers,
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  if (response.status === 401 && app.token && !options.anonymous) {
    forgetSession();
  }
  if (!response.ok) {
    let message = response.statusText;
    try {
      const data = await response.json();
      message = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    } catch { /* not JSON */ }
    throw new Error(message);
  }
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

export async function refreshMe() {
  if (!app.token) return;
  try {
    app.me = await api("/api/me");
  } catch {
    return;
  }
  $("#account").hidden = false;
  $("#who").textContent = app.me.display_name;
  const balance = $("#balance");
  balance.textContent = money(app.me.balance);
  balance.dataset.chips = String(app.me.balance);
}

export function forgetSession() {
  app.token = null;
  app.me = null;
  app.seated = new Set();
  localStorage.removeItem("pokerroom.token");
  $("#account").hidden = true;
  show("auth");
}

export async function download(path, filename) {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${app.token}` } });
  if (!response.ok) { showToast(`Download failed: ${response.statusText}`); return; }
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
