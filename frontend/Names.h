// Every name a parse-tree node mentions (variables, arrays, functions and
// what their subscripts and arguments read), lower-cased: what the front
// end's name tests walk for.
#pragma once

#include "frontend/ParseTree.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <set>
#include <string>

namespace f2s::fe {

/// The walker behind collect_names.
struct NameWalk {
  std::set<std::string> &into;
  template <typename U> bool Pre(const U &) { return true; }
  template <typename U> void Post(const U &) {}
  bool Pre(const fp::Name &n) {
    into.insert(text_of(n.source));
    return false;
  }
};

/// Adds every name in `node` to `into`.
template <typename T> void collect_names(const T &node, std::set<std::string> &into) {
  NameWalk all{into};
  fp::Walk(node, all);
}

/// Every name in `node`.
template <typename T> std::set<std::string> names_in(const T &node) {
  std::set<std::string> names;
  collect_names(node, names);
  return names;
}

} // namespace f2s::fe
