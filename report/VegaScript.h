// Vega, as one script to inline into a page: Debian's libjs-vega modules,
// linked by report/vega_loader.js into the global `vega`.
#pragma once

namespace f2s {

/// The script's text (report/CMakeLists.txt generates it at configure time).
const char *vega_script();

} // namespace f2s
