// Links Debian's libjs-vega modules into the global `vega`, as Vega's own
// bundle (its package 'vega', not in Debian) does. Each module is a UMD file
// that calls define([dependencies], factory) when an AMD `define` exists;
// report/CMakeLists.txt puts f2sVegaModule("<name>") before each, in an
// order where every module follows those it requires, and f2sVegaLink()
// after the last.
(function () {
  var modules = {}, next = null;
  // Vega's 'vega-functions' requires the module published as
  // 'vega-selections', which Debian ships as vega-selection.min.js.
  var aliases = {'vega-selections': 'vega-selection'};
  function define(deps, factory) {
    var exports = {};
    var args = deps.map(function (d) {
      if (d === 'exports') return exports;
      var m = modules[aliases[d] || d];
      if (!m) throw new Error('Vega module ' + next + ' requires ' + d + ', not loaded before it');
      return m;
    });
    factory.apply(null, args);
    modules[next] = exports;
  }
  define.amd = true;
  window.define = define;
  window.f2sVegaModule = function (name) { next = name; };
  window.f2sVegaLink = function () {
    delete window.define;
    // The transforms a spec names ("filter", "aggregate", ...) are looked up
    // in vega-dataflow's registry, which the bundle fills from these.
    var registry = modules['vega-dataflow'].transforms;
    ['vega-transforms', 'vega-view-transforms', 'vega-encode'].forEach(function (m) {
      Object.assign(registry, modules[m]);
    });
    var vega = {};
    Object.keys(modules).forEach(function (m) { Object.assign(vega, modules[m]); });
    window.vega = vega;
  };
})();
