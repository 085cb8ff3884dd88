// Lowering the statements of the point: blocks, forward jumps (IF (...) GO
// TO, IF (...) CYCLE) as IFs over the statements they skip, IF statements
// and constructs, and the refusal, with the rewrite, of every other
// statement. Assignments are LowerAssignment.cpp's.
#include "frontend/RegionLowering.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>

namespace f2s::fe::lowering {

namespace {

/// `IF (c) CYCLE` and `IF (c) GO TO l`: the one-line IF of a forward jump,
/// as legacy codes skip land or boundary points. Null for any other statement.
const fp::IfStmt *jump_if(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  const auto *i = action ? std::get_if<fc::Indirection<fp::IfStmt>>(&action->statement.u) : nullptr;
  if (!i)
    return nullptr;
  const auto &u = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(i->value().t).statement.u;
  const auto *cycle = std::get_if<fc::Indirection<fp::CycleStmt>>(&u);
  if ((cycle && !cycle->value().v) || std::holds_alternative<fc::Indirection<fp::GotoStmt>>(u))
    return &i->value();
  return nullptr;
}

/// A CYCLE statement of the innermost DO loop (no construct name).
bool is_cycle(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  const auto *cycle =
      action ? std::get_if<fc::Indirection<fp::CycleStmt>>(&action->statement.u) : nullptr;
  return cycle && !cycle->value().v;
}

/// Whether a block holds a CYCLE of the loop around it: in an IF construct
/// or an IF statement at any depth, not inside a DO loop of its own (whose
/// CYCLE is that loop's).
bool cycles(const fp::Block &b);

bool cycles(const fp::ExecutionPartConstruct &c) {
  if (is_cycle(c))
    return true;
  if (const fp::IfStmt *jump = jump_if(c))
    return std::holds_alternative<fc::Indirection<fp::CycleStmt>>(
        std::get<fp::UnlabeledStatement<fp::ActionStmt>>(jump->t).statement.u);
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *i = exec ? std::get_if<fc::Indirection<fp::IfConstruct>>(&exec->u) : nullptr;
  if (!i)
    return false;
  const fp::IfConstruct &construct = i->value();
  if (cycles(std::get<fp::Block>(construct.t)))
    return true;
  for (const fp::IfConstruct::ElseIfBlock &e :
       std::get<std::list<fp::IfConstruct::ElseIfBlock>>(construct.t))
    if (cycles(std::get<fp::Block>(e.t)))
      return true;
  const auto &e = std::get<std::optional<fp::IfConstruct::ElseBlock>>(construct.t);
  return e && cycles(std::get<fp::Block>(e->t));
}

bool cycles(const fp::Block &b) {
  return std::any_of(b.begin(), b.end(), [](const auto &c) { return cycles(c); });
}

/// The statement of `first .. last` labelled `label`, or `last`.
fp::Block::const_iterator find_label(fp::Block::const_iterator first,
                                     fp::Block::const_iterator last, fp::Label label) {
  for (; first != last; ++first) {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&first->u);
    const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
    if (action && action->label == label)
      return first;
  }
  return last;
}

} // namespace

Stmt RegionLowering::lower_block(const fp::Block &b, const SourceLoc &loc, bool loop_body) {
  if (!loop_body)
    return lower_range(b.begin(), b.end(), loc, false);
  // A temporary the body assigns holds, where the body starts, what the
  // previous trip (or the code before the loop) left, and after the loop
  // what the last trip left: its value as a subscript is known only after
  // its assignment in the body.
  AssignedScalars inside;
  fp::Walk(b, inside);
  for (const std::string &n : inside.names) {
    integer_defs_.erase(n);
    integer_unknown_[n] = "'" + n +
                          "' is read before its assignment in the loop body, where it holds "
                          "what the previous point left; assign it before this statement";
  }
  Stmt s = lower_range(b.begin(), b.end(), loc, true);
  for (const std::string &n : inside.names) {
    integer_defs_.erase(n);
    integer_unknown_[n] = "'" + n + "' holds what the last trip of the DO loop at line " +
                          std::to_string(loc.line) + " left; assign it again before this statement";
  }
  return s;
}

/// The statements `first .. last` of a block; `loop_body` when they end the
/// body of a DO loop, so that CYCLE skips them, and `rest` the statements of
/// that body after them (the rest of the body after the IF construct that
/// holds them). A forward jump skips the statements up to its target: they
/// run under the negated condition, which is what the jump means (`IF
/// (kmt(i,j) < k) GO TO 100` ... `100 CONTINUE`). A CYCLE ends the range and
/// what follows it in the body; an IF construct that holds one takes the
/// rest of the body into each of its branches, where it runs after the
/// branches that do not cycle (`if (kmt(i,j) == 0) then; t(i,j) = 0; cycle;
/// end if` masks land points as production ocean codes do): the control flow
/// as written, in IFs, without a flag.
Stmt RegionLowering::lower_range(fp::Block::const_iterator first, fp::Block::const_iterator last,
                                 const SourceLoc &loc, bool loop_body, const Rest &rest) {
  std::vector<Stmt> stmts;
  auto done = [&] { return Block::make(std::move(stmts), loc); };
  for (auto it = first; it != last; ++it) {
    const fp::ExecutionPartConstruct &c = *it;
    if (is_continue(c))
      continue;
    if (loop_body && is_cycle(c))
      return done(); // what follows in the body does not run
    if (loop_body && !jump_if(c) && cycles(c)) {
      const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
      const auto &construct = std::get<fc::Indirection<fp::IfConstruct>>(exec->u).value();
      Rest after = followed_by(std::next(it), last, rest);
      problems_.attempt([&] { stmts.push_back(lower_if_construct(construct, &after)); });
      return done();
    }
    if (const fp::IfStmt *jump = jump_if(c)) {
      const auto &action = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(jump->t);
      const auto *go_to = std::get_if<fc::Indirection<fp::GotoStmt>>(&action.statement.u);
      auto target = last;
      if (go_to) {
        target = find_label(std::next(it), last, go_to->value().v);
        if (target == last)
          fail(at(action.source),
               "GO TO " + std::to_string(go_to->value().v) + " inside a " + kRegion +
                   " must jump forward to a statement of the same block, such as the "
                   "CONTINUE that ends the DO loop; put the statements it skips in an IF "
                   "construct instead");
      } else if (!loop_body) {
        fail(at(action.source), std::string("A CYCLE at this place of a ") + kRegion +
                                    " (not in the body of a DO loop of the region) cannot be "
                                    "lowered as written; put IF (.NOT. (...)) around the "
                                    "statements it skips instead");
      }
      SourceLoc if_loc = at_node(c);
      Expr cond = lower_condition(std::get<fp::ScalarLogicalExpr>(jump->t));
      if (go_to && loop_body &&
          std::any_of(std::next(it), target, [](const auto &s) { return cycles(s); })) {
        // A CYCLE among the statements the jump skips skips the label's
        // statements too: they and the rest of the body run after the
        // skipped ones that do not cycle, or alone where the jump is taken.
        Rest after = followed_by(target, last, rest);
        ++in_if_;
        Stmt skipped = lower_range(std::next(it), target, if_loc, true, after);
        Stmt taken = lower_rest(after, if_loc);
        --in_if_;
        stmts.push_back(
            IfThenElse::make(Unary::make(UnaryOp::Not, cond, if_loc), skipped, taken, if_loc));
        return done();
      }
      ++in_if_;
      Stmt skipped =
          go_to ? lower_range(std::next(it), target, if_loc, false)
                : lower_range(std::next(it), last, if_loc, loop_body, rest); // the rest too
      --in_if_;
      stmts.push_back(
          IfThenElse::make(Unary::make(UnaryOp::Not, cond, if_loc), skipped, nullptr, if_loc));
      if (!go_to)
        return done();
      if (target == last)
        break;
      it = std::prev(target);
      continue;
    }
    // A statement refused halfway through a named constant's value or an
    // array's bounds must not leave the next one lowered as a bound.
    auto bound_of = bound_of_;
    bool in_dims = in_dims_;
    if (!problems_.attempt([&] {
          // An unrolled loop's copies (frontend/OffsetLoops) join the statements around it.
          Stmt s = lower_statement(c);
          if (const Block *copies = as<Block>(s))
            stmts.insert(stmts.end(), copies->stmts.begin(), copies->stmts.end());
          else
            stmts.push_back(s);
        })) {
      bound_of_ = bound_of;
      in_dims_ = in_dims;
    }
  }
  // Fell off the end: the rest of the loop body runs.
  if (!rest.empty()) {
    Stmt after = lower_rest(rest, loc);
    const auto &more = as<Block>(after)->stmts;
    stmts.insert(stmts.end(), more.begin(), more.end());
  }
  return done();
}

/// `first .. last`, then `rest`: what follows a statement of the loop body.
RegionLowering::Rest RegionLowering::followed_by(fp::Block::const_iterator first,
                                                 fp::Block::const_iterator last,
                                                 const RegionLowering::Rest &rest) {
  RegionLowering::Rest after{{first, last}};
  after.insert(after.end(), rest.begin(), rest.end());
  return after;
}

Stmt RegionLowering::lower_rest(const Rest &rest, const SourceLoc &loc) {
  if (rest.empty())
    return Block::make({}, loc);
  return lower_range(rest.front().first, rest.front().second, loc, true,
                     Rest(std::next(rest.begin()), rest.end()));
}

Stmt RegionLowering::lower_statement(const fp::ExecutionPartConstruct &c) {
  SourceLoc loc = at_node(c);
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  if (!exec)
    fail(loc, std::string("This statement is not allowed inside a ") + kRegion);
  if (const auto *i = std::get_if<fc::Indirection<fp::IfConstruct>>(&exec->u))
    return lower_if_construct(i->value());
  if (const auto *d = std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u))
    return column_dos_.count(&d->value()) ? lower_column_loop(d->value())
                                          : unroll_offset_loop(d->value(), *this);
  const auto *action = std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u);
  if (!action)
    reject(*exec, loc);
  return lower_action(action->statement, at(action->source), exec);
}

/// An assignment, or a one-line IF around one. `construct` is the statement
/// to name in an error; null for the action of an IF statement.
Stmt RegionLowering::lower_action(const fp::ActionStmt &a, const SourceLoc &loc,
                                  const fp::ExecutableConstruct *construct) {
  if (const auto *as = std::get_if<fc::Indirection<fp::AssignmentStmt>>(&a.u))
    return lower_assignment(as->value(), loc);
  if (const auto *i = std::get_if<fc::Indirection<fp::IfStmt>>(&a.u)) {
    const fp::IfStmt &stmt = i->value();
    Expr cond = lower_condition(std::get<fp::ScalarLogicalExpr>(stmt.t));
    const auto &action = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(stmt.t);
    ++in_if_;
    Stmt then_case = lower_action(action.statement, at(action.source), nullptr);
    --in_if_;
    return IfThenElse::make(cond, then_case, nullptr, loc);
  }
  if (construct)
    reject(*construct, loc);
  fail(loc, std::string("Only an assignment may follow IF (...) inside a ") + kRegion);
}

/// IF ... ELSE IF ... ELSE ... END IF: each ELSE IF is an IF in the else case
/// of the one before.
/// With `rest` (an IF construct that holds a CYCLE of the loop, see
/// lower_range), each branch runs the rest of the loop body after it unless
/// it cycles, and a missing ELSE is the rest alone.
Stmt RegionLowering::lower_if_construct(const fp::IfConstruct &c, const Rest *rest) {
  const auto &if_then = std::get<fp::Statement<fp::IfThenStmt>>(c.t);
  SourceLoc loc = at(if_then.source);
  Expr cond = lower_condition(std::get<fp::ScalarLogicalExpr>(if_then.statement.t));
  struct InIf {
    int &depth;
    explicit InIf(int &d) : depth(++d) {}
    ~InIf() { --depth; }
  } in_if(in_if_);
  auto lower_block = [&](const fp::Block &b, const SourceLoc &at) {
    return rest ? lower_range(b.begin(), b.end(), at, true, *rest) : this->lower_block(b, at);
  };
  Stmt then_case = lower_block(std::get<fp::Block>(c.t), loc);
  struct Arm {
    Expr cond;
    Stmt body;
    SourceLoc loc;
  };
  std::vector<Arm> arms;
  for (const fp::IfConstruct::ElseIfBlock &e :
       std::get<std::list<fp::IfConstruct::ElseIfBlock>>(c.t)) {
    const auto &stmt = std::get<fp::Statement<fp::ElseIfStmt>>(e.t);
    SourceLoc arm_loc = at(stmt.source);
    Expr arm_cond = lower_condition(std::get<fp::ScalarLogicalExpr>(stmt.statement.t));
    arms.push_back({arm_cond, lower_block(std::get<fp::Block>(e.t), arm_loc), arm_loc});
  }
  Stmt else_case;
  if (const auto &e = std::get<std::optional<fp::IfConstruct::ElseBlock>>(c.t))
    else_case = lower_block(std::get<fp::Block>(e->t),
                            at(std::get<fp::Statement<fp::ElseStmt>>(e->t).source));
  else if (rest)
    else_case = lower_rest(*rest, loc);
  for (auto arm = arms.rbegin(); arm != arms.rend(); ++arm)
    else_case = IfThenElse::make(arm->cond, arm->body, else_case, arm->loc);
  return IfThenElse::make(cond, then_case, else_case, loc);
}

Expr RegionLowering::lower_condition(const fp::ScalarLogicalExpr &e) {
  const fp::Expr &x = e.thing.thing.value();
  Expr cond = lower_expr(x);
  if (cond->type != Type::Bool)
    fail(at(x.source), "The condition '" + text_of(x.source) + "' must be LOGICAL");
  return cond;
}

void RegionLowering::reject(const fp::ExecutableConstruct &c, const SourceLoc &loc) const {
  // The statements with a rewrite the region accepts.
  std::string fix;
  if (const auto *action = std::get_if<fp::Statement<fp::ActionStmt>>(&c.u)) {
    const auto &stmt = action->statement.u;
    if (std::holds_alternative<fc::Indirection<fp::CallStmt>>(stmt))
      fix = "; write the subroutine's computation inline";
    else if (std::holds_alternative<fc::Indirection<fp::CycleStmt>>(stmt))
      fix = "; put the rest of the loop body in an IF construct instead";
    else if (std::holds_alternative<fc::Indirection<fp::GotoStmt>>(stmt))
      fix = "; skip statements with IF (...) GO TO directly in the body of the DO loop, "
            "jumping forward to a label of that body, or with an IF construct";
  } else if (std::holds_alternative<fc::Indirection<fp::CaseConstruct>>(c.u)) {
    fix = "; use an IF construct instead";
  }
  std::string what = std::visit(
      [](const auto &x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        using fc::Indirection;
        if constexpr (std::is_same_v<T, fp::Statement<fp::ActionStmt>>) {
          return std::visit(
              [](const auto &s) -> std::string {
                using S = std::decay_t<decltype(s)>;
                if constexpr (std::is_same_v<S, Indirection<fp::CallStmt>>)
                  return "A CALL statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::IfStmt>>)
                  return "An IF statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::CycleStmt>>)
                  return "A CYCLE statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ExitStmt>>)
                  return "An EXIT statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::GotoStmt>>)
                  return "A GO TO statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::PrintStmt>>)
                  return "A PRINT statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::WriteStmt>>)
                  return "A WRITE statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ReadStmt>>)
                  return "A READ statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ReturnStmt>>)
                  return "A RETURN statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::StopStmt>>)
                  return "A STOP statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::PointerAssignmentStmt>>)
                  return "A pointer assignment";
                else if constexpr (std::is_same_v<S, Indirection<fp::WhereStmt>>)
                  return "A WHERE statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ForallStmt>>)
                  return "A FORALL statement";
                else
                  return "This statement";
              },
              x.statement.u);
        } else if constexpr (std::is_same_v<T, Indirection<fp::IfConstruct>>) {
          return "An IF construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::CaseConstruct>>) {
          return "A SELECT CASE construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::DoConstruct>>) {
          return "A DO construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::WhereConstruct>>) {
          return "A WHERE construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::ForallConstruct>>) {
          return "A FORALL construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::BlockConstruct>>) {
          return "A BLOCK construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::AssociateConstruct>>) {
          return "An ASSOCIATE construct";
        } else if constexpr (std::is_same_v<T, fp::Statement<Indirection<fp::LabelDoStmt>>>) {
          return "A label DO loop";
        } else if constexpr (std::is_same_v<T, Indirection<fp::CompilerDirective>>) {
          return "A compiler directive";
        } else if constexpr (std::is_same_v<T, Indirection<fp::OpenMPConstruct>>) {
          return "An OpenMP directive";
        } else if constexpr (std::is_same_v<T, Indirection<fp::OpenACCConstruct>>) {
          return "An OpenACC directive";
        } else {
          return "This construct";
        }
      },
      c.u);
  fail(loc, what + " is not allowed inside a " + kRegion + fix);
}

} // namespace f2s::fe::lowering
