// How the explorer reads its address, apart from its data: the parameters it reads, how a
// parameter's values are read, and whether an address surely means the default view. Shared by
// static/js/explorer-view.js (the explorer's whole reading, with its notices) and the explorer
// page's inline script (layouts/explorer/single.html inlines this file, without its comments),
// which decides before the build's picture of the default view is painted whether it is shown.
(function (root, make) {
  if (typeof module === "object" && module.exports) module.exports = make();
  else root.fsatlasExplorerAddress = make();
})(this, function () {
  "use strict";
  // The parameters the explorer reads; the first four name lists (comma-separated, repeatable).
  var PARAMETERS = ["r", "fs", "v", "w", "metric", "mode", "base", "axis", "cpu", "embed"], LISTS = 4;
  // The value a view's query leaves out: the default's query has no cpu= (CPU load not shown).
  var OMITTED = { cpu: "0" };
  // A parameter's value: every time the address gives it, joined (?r=A&r=B is r=A,B); null: never.
  function value(params, name) {
    var all = params.getAll(name);
    return all.length ? all.join(",") : null;
  }
  function list(params, name, fallback) {
    var v = value(params, name);
    return v === null ? fallback : v.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
  }
  // The name a closed set (a table of its names) knows a value by: the value itself, or the one
  // name it matches in another case (?fs=XFS is xfs); undefined: none, or several.
  function known(allowed, v) {
    var own = Object.prototype.hasOwnProperty;
    if (own.call(allowed, v)) return v;
    var lower = v.toLowerCase(), found = Object.keys(allowed).filter(function (k) { return k.toLowerCase() === lower; });
    return found.length === 1 ? found[0] : undefined;
  }
  function lowerSet(values) {
    return values.map(function (v) { return v.toLowerCase(); }).filter(function (v, i, all) { return all.indexOf(v) === i; }).sort().join(",");
  }
  // Whether params (an address's query) surely name the view whose query is defaults (the
  // default view's, as explorer-view.js query() writes it): every parameter the explorer reads,
  // embed aside, absent, a list given empty, or its default's values in any case, order or
  // repetition (of one value: the first given, as the explorer reads it). Parameters it does not
  // read do not count. false where only the data can tell (a run, metric or filesystem the
  // default does not name may be unknown, and then the explorer shows the default in its place).
  function meansDefault(params, defaults) {
    return PARAMETERS.every(function (name, i) {
      if (name === "embed" || !params.has(name)) return true;
      var wanted = defaults.has(name) ? list(defaults, name, []) : [OMITTED[name]];
      if (i < LISTS) {
        var given = list(params, name, []);
        return !given.length || lowerSet(given) === lowerSet(wanted);
      }
      return params.get(name).toLowerCase() === String(wanted[0]).toLowerCase();
    });
  }
  return { PARAMETERS: PARAMETERS, value: value, list: list, known: known, meansDefault: meansDefault };
});
