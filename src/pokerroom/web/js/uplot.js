// @ts-check
// uPlot (vendored in /static/vendor/uplot), loaded once when a chart is first drawn.

import { el } from "./dom.js";

const UPLOT = "/static/vendor/uplot/uPlot.iife.min.js";
const UPLOT_CSS = "/static/vendor/uplot/uPlot.min.css";
let loading = null;

export function loadUplot() {
  if (window.uPlot) return Promise.resolve();
  if (!loading) {
    document.head.append(el("link", { rel: "stylesheet", href: UPLOT_CSS }));
    loading = new Promise((resolve, reject) => {
      const script = el("script", { src: UPLOT });
      script.addEventListener("load", resolve);
      script.addEventListener("error", () => { loading = null; reject(new Error(UPLOT)); });
      document.head.append(script);
    });
  }
  return loading;
}
