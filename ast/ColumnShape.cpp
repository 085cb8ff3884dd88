#include "ast/ColumnShape.h"

#include "ast/IRVisitor.h"

namespace f2s {

namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// The first DO loop of a column that the targets cannot run.
class Loops : public IRVisitor {
public:
  explicit Loops(const Kernel &k) : k_(k) {}
  std::optional<Diagnostic> found;

protected:
  void visit_for(const For *f) override {
    if (found)
      return;
    if (f->var != k_.column->var) {
      found = Diagnostic{f->loc, "A DO loop over '" + f->var + "' in a column of a " +
                                     std::string(kRegion) + " must run over '" + k_.column->var +
                                     "' like the others"};
      return;
    }
    if (inside_) {
      found = Diagnostic{f->loc, "A DO loop over '" + f->var + "' inside the DO loop over '" +
                                     k_.column->var + "' of a column cannot be part of a " +
                                     kRegion + "; the column's DO loops must follow each other"};
      return;
    }
    inside_ = true;
    visit(f->body);
    inside_ = false;
  }

private:
  const Kernel &k_;
  bool inside_ = false;
};

} // namespace

std::optional<Diagnostic> check_column_shape(const Kernel &k) {
  if (!k.reductions.empty())
    return Diagnostic{k.reductions.front().loc,
                      "'" + k.reductions.front().var + "' is reduced over the columns of the " +
                          std::string(kRegion) +
                          ", which f2stencil does not do for a column nest; sum it in a loop "
                          "after the region"};
  Loops loops(k);
  loops.visit(perfect_nest(k.body).back()->body);
  return loops.found;
}

} // namespace f2s
