#include "transforms/ArrayIndexing.h"

#include <stdexcept>

namespace f2s {

Kernel choose_array_indexing(const Kernel &k, const ArrayIndexingOptions &options) {
  if (options.indexing != 0 && options.indexing != 1)
    throw std::invalid_argument("array indexing option 'indexing' = " +
                                std::to_string(options.indexing) + " is neither 0 nor 1");
  Kernel out = k;
  out.indexing = options.indexing ? Indexing::RowPointers : Indexing::Full;
  return out;
}

} // namespace f2s
