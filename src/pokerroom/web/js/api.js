// @ts-check
// The room's REST API: requests with the session's token, the account, downloads.

import { $, el, showToast } from "./dom.js";
import { money } from "./format.js";
import { t } from "./i18n.js";
import { app, endSession, setMe } from "./state.js";
import { apiError } from "./texts.js";

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
    endSession();
  }
  if (!response.ok) {
    let body = null;
    try {
      body = await response.json(); // {detail, code, params}: shown in the page's language
    } catch { /* not JSON */ }
    if (body && typeof body.detail !== "string") body.detail = JSON.stringify(body.detail);
    const error = apiError(body, response.statusText);
    error.status = response.status; // (none: no answer came)
    throw error;
  }
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  return type.includes("json") ? response.json() : response.text();
}

export async function refreshMe() {
  if (!app.token) return;
  try {
    setMe(await api("/api/me"));
  } catch {
    return;
  }
  renderMe();
}

// The account in the header, as last fetched (and again in a new language).
export function renderMe() {
  if (!app.me) return;
  $("#account").hidden = false;
  $("#who").textContent = app.me.display_name;
  const balance = $("#balance");
  balance.textContent = money(app.me.balance);
  balance.dataset.chips = String(app.me.balance);
}

export async function download(path, filename) {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${app.token}` } });
  if (!response.ok) { showToast(t("error.download", { reason: response.statusText })); return; }
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
