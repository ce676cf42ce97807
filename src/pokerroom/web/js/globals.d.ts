// What the page has beyond the modules: uPlot (web/vendor, loaded on demand by uplot.js) and
// the state shown to the browser console and the browser tests (main.js).
interface Window {
  uPlot: any;
  pokerroom: import("./state.js").AppState;
}
